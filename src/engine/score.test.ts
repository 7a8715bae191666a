import { describe, expect, it } from 'vitest';
import type { Condition, ConditionResult, PatientData, RuleSet } from './index.ts';
import { CONDITIONS, DEFAULT_RULE_SET, score } from './index.ts';

/** Complete demographics under which no risk factor applies outside Asthma (age 40, BMI 21.6). */
const NEUTRAL_DEMOGRAPHICS = { age: 40, gender: 'Male', height: 180, weight: 70 } as const;

function scoreOf(input: PatientData, condition: Condition): ConditionResult {
  const result = score({ demographics: NEUTRAL_DEMOGRAPHICS, ...input }).conditions.find(
    (conditionResult) => conditionResult.condition === condition,
  );
  if (result === undefined) throw new Error(`no result for ${condition}`);
  return result;
}

/** Asthma is only scored with cough or wheezing present; this adds the cough (0.75, one factor). */
const ASTHMA_COUGH = { symptoms: { Asthma: { coughOnOff: { present: true } } } } as const;

describe('result shape (spec 3.3)', () => {
  it('lists the six conditions in the order DM2, HIV, TB, Asthma, Hypertension, Hyperlipidaemia', () => {
    expect(score({}).conditions.map((result) => result.condition)).toEqual([
      'DM2',
      'HIV',
      'TB',
      'Asthma',
      'Hypertension',
      'Hyperlipidaemia',
    ]);
  });

  it('records the rule set version 2.0 by default', () => {
    expect(score({}).ruleSetVersion).toBe('2.0');
  });

  it('totalScore is the sum of the condition totals', () => {
    const result = score({
      demographics: { age: 60, gender: 'Female', height: 160, weight: 80 },
      riskFactors: { smoking: true, familyHistory: { Hypertension: true } },
      symptoms: { Asthma: { wheezing: { present: true, severity: 'mild' } } },
    });
    const sum = result.conditions.reduce((total, condition) => total + condition.totalScore, 0);
    expect(result.totalScore).toBeGreaterThan(0);
    expect(result.totalScore).toBeCloseTo(sum, 12);
  });

  it('lists present symptoms with name, weight, multiplier and contribution, and applicable risk factors with name and weight', () => {
    const result = scoreOf(
      {
        demographics: { ...NEUTRAL_DEMOGRAPHICS, age: 55 },
        symptoms: {
          DM2: { thirst: { present: true, severity: 'severe' }, hunger: { present: false } },
        },
      },
      'DM2',
    );
    expect(result.details).toEqual({
      symptoms: [
        { name: 'Increased Thirst', weight: 0.75, severityMultiplier: 2, contribution: 1.5 },
      ],
      riskFactors: [{ name: 'Age 50 or over', weight: 3 }],
      threshold: 2,
    });
  });

  it('gives the BMI unrounded and whether the demographics are complete', () => {
    const complete = score({ demographics: { age: 30, gender: 'Male', height: 170, weight: 70 } });
    expect(complete.patientBMI).toBe(70 / 1.7 ** 2);
    expect(complete.assessmentComplete).toBe(true);
    const incomplete = score({ demographics: { age: 30, height: 170, weight: 70 } });
    expect(incomplete.assessmentComplete).toBe(false);
  });

  it('scores with the rule set it is given', () => {
    const strict: RuleSet = {
      ...DEFAULT_RULE_SET,
      version: 'test',
      conditions: {
        ...DEFAULT_RULE_SET.conditions,
        TB: { ...DEFAULT_RULE_SET.conditions.TB, threshold: 0 },
      },
    };
    const result = score({ demographics: NEUTRAL_DEMOGRAPHICS }, strict);
    expect(result.ruleSetVersion).toBe('test');
    expect(result.conditions[2]).toMatchObject({ condition: 'TB', riskStatus: 'MAYBE' });
  });
});

describe('decisions 3: risk factors and weights', () => {
  it('DM2: age >= 50 adds 3 and one factor; 49 does not', () => {
    expect(scoreOf({ demographics: { ...NEUTRAL_DEMOGRAPHICS, age: 50 } }, 'DM2')).toMatchObject({
      factorCount: 1,
      components: { riskFactorScore: 3 },
    });
    expect(scoreOf({ demographics: { ...NEUTRAL_DEMOGRAPHICS, age: 49 } }, 'DM2').factorCount).toBe(
      0,
    );
  });

  it('DM2: BMI > 25 adds 0.75; a BMI of exactly 25 does not', () => {
    // 100 kg at 2 m is exactly 25; 101 kg is above.
    const at25 = scoreOf(
      { demographics: { ...NEUTRAL_DEMOGRAPHICS, height: 200, weight: 100 } },
      'DM2',
    );
    expect(at25.factorCount).toBe(0);
    const above = scoreOf(
      { demographics: { ...NEUTRAL_DEMOGRAPHICS, height: 200, weight: 101 } },
      'DM2',
    );
    expect(above).toMatchObject({ factorCount: 1, components: { riskFactorScore: 0.75 } });
  });

  it('DM2: the BMI weight is 0.75, not the 0.25 of the other reading', () => {
    const result = scoreOf({ demographics: { ...NEUTRAL_DEMOGRAPHICS, weight: 120 } }, 'DM2');
    expect(result.details.riskFactors).toEqual([{ name: 'BMI > 25', weight: 0.75 }]);
  });

  it('DM2: family history of DM2 adds 2.5', () => {
    const result = scoreOf({ riskFactors: { familyHistory: { DM2: true } } }, 'DM2');
    expect(result).toMatchObject({ factorCount: 1, components: { riskFactorScore: 2.5 } });
  });

  it('HIV: female gender adds 0.5; male adds nothing', () => {
    const female = scoreOf({ demographics: { ...NEUTRAL_DEMOGRAPHICS, gender: 'Female' } }, 'HIV');
    expect(female).toMatchObject({ factorCount: 1, components: { riskFactorScore: 0.5 } });
    expect(scoreOf({}, 'HIV').factorCount).toBe(0);
  });

  it('TB: household TB exposure adds 1', () => {
    const result = scoreOf({ riskFactors: { householdTBExposure: true } }, 'TB');
    expect(result).toMatchObject({ factorCount: 1, components: { riskFactorScore: 1 } });
  });

  it('TB: no family history factor is used (the spec gives one with no input)', () => {
    const result = scoreOf(
      {
        riskFactors: {
          familyHistory: { DM2: true, Asthma: true, Hypertension: true, Hyperlipidaemia: true },
        },
      },
      'TB',
    );
    expect(result.factorCount).toBe(0);
    expect(DEFAULT_RULE_SET.conditions.TB.riskFactors.map((factor) => factor.key)).toEqual([
      'householdTBExposure',
    ]);
  });

  it('Asthma: an age above 0 and below 50 adds 1.2; ages 0 and 50 do not', () => {
    const withAge = (age: number) =>
      scoreOf({ ...ASTHMA_COUGH, demographics: { ...NEUTRAL_DEMOGRAPHICS, age } }, 'Asthma');
    expect(withAge(1)).toMatchObject({ factorCount: 2, components: { riskFactorScore: 1.2 } });
    expect(withAge(49).factorCount).toBe(2);
    expect(withAge(0).factorCount).toBe(1);
    expect(withAge(50).factorCount).toBe(1);
  });

  it('Asthma: smoking adds 1.33', () => {
    const result = scoreOf(
      {
        ...ASTHMA_COUGH,
        demographics: { ...NEUTRAL_DEMOGRAPHICS, age: 60 },
        riskFactors: { smoking: true },
      },
      'Asthma',
    );
    expect(result).toMatchObject({ factorCount: 2, components: { riskFactorScore: 1.33 } });
  });

  it('Asthma: family history of Asthma adds 2.8', () => {
    const result = scoreOf(
      {
        ...ASTHMA_COUGH,
        demographics: { ...NEUTRAL_DEMOGRAPHICS, age: 60 },
        riskFactors: { familyHistory: { Asthma: true } },
      },
      'Asthma',
    );
    expect(result).toMatchObject({ factorCount: 2, components: { riskFactorScore: 2.8 } });
  });

  it('Hypertension: family history of Hypertension adds 1.8', () => {
    const result = scoreOf(
      { riskFactors: { familyHistory: { Hypertension: true } } },
      'Hypertension',
    );
    expect(result).toMatchObject({ factorCount: 1, components: { riskFactorScore: 1.8 } });
  });

  it('Hyperlipidaemia: BMI > 25 adds 0.7 and family history of Hyperlipidaemia adds 2.5', () => {
    const result = scoreOf(
      {
        demographics: { ...NEUTRAL_DEMOGRAPHICS, weight: 90 },
        riskFactors: { familyHistory: { Hyperlipidaemia: true } },
      },
      'Hyperlipidaemia',
    );
    expect(result).toMatchObject({ factorCount: 2, components: { riskFactorScore: 3.2 } });
  });

  it('a family history counts only for its own condition', () => {
    const result = score({
      demographics: NEUTRAL_DEMOGRAPHICS,
      riskFactors: { familyHistory: { DM2: true } },
    });
    expect(result.conditions.map((condition) => condition.factorCount)).toEqual([1, 0, 0, 0, 0, 0]);
  });

  it('an unanswered risk factor does not apply', () => {
    const result = score({ demographics: NEUTRAL_DEMOGRAPHICS, riskFactors: {} });
    expect(result.conditions.every((condition) => condition.factorCount === 0)).toBe(true);
  });
});

describe('decisions 3: factor count', () => {
  it('counts each present, counted symptom and each applicable risk factor once', () => {
    const result = scoreOf(
      {
        demographics: { ...NEUTRAL_DEMOGRAPHICS, gender: 'Female' },
        symptoms: {
          HIV: {
            fever: { present: true, severity: 'mild' },
            rash: { present: true },
            weightLoss: { present: false },
          },
        },
      },
      'HIV',
    );
    expect(result.factorCount).toBe(3);
  });

  it('comorbidity and management add to the score, not to the factor count', () => {
    const result = scoreOf(
      {
        management: {
          TB: { diagnosed: true },
          HIV: { diagnosed: true, lastDoctorVisit: 'never', prescriptionDuration: '<4months' },
        },
      },
      'HIV',
    );
    expect(result).toMatchObject({
      factorCount: 0,
      components: { comorbidityScore: 1, managementScore: 2.25 },
      totalScore: 3.25,
    });
  });
});

describe('decisions 3: symptom contribution', () => {
  it.each([
    ['mild', 1.5, 1.275],
    ['moderate', 1.75, 1.4875],
    ['severe', 2, 1.7],
  ] as const)('severity %s multiplies the weight by %d', (severity, multiplier, contribution) => {
    const result = scoreOf({ symptoms: { DM2: { fatigue: { present: true, severity } } } }, 'DM2');
    expect(result.details.symptoms).toEqual([
      { name: 'Fatigue', weight: 0.85, severityMultiplier: multiplier, contribution },
    ]);
    expect(result.components.symptomScore).toBe(contribution);
  });

  it('a present symptom with no severity counts with multiplier 1', () => {
    const result = scoreOf({ symptoms: { HIV: { rash: { present: true } } } }, 'HIV');
    expect(result.details.symptoms).toEqual([
      { name: 'Rash', weight: 0.55, severityMultiplier: 1, contribution: 0.55 },
    ]);
  });

  it.each([
    ['DM2', 'frequentUrination', 0.8],
    ['TB', 'coughOver14Days', 0.9],
    ['Asthma', 'coughOnOff', 0.75],
  ] as const)(
    'a severity sent for %s %s, which has no severity scale, is ignored (multiplier 1)',
    (condition, key, weight) => {
      const result = scoreOf(
        { symptoms: { [condition]: { [key]: { present: true, severity: 'severe' } } } },
        condition,
      );
      expect(result.details.symptoms).toMatchObject([
        { weight, severityMultiplier: 1, contribution: weight },
      ]);
    },
  );

  it.each([
    ['HIV', 0.7],
    ['TB', 0.8],
  ] as const)('%s weight loss counts with multiplier 1', (condition, weight) => {
    const result = scoreOf(
      { symptoms: { [condition]: { weightLoss: { present: true, severity: 'loss' } } } },
      condition,
    );
    expect(result).toMatchObject({ factorCount: 1, components: { symptomScore: weight } });
    expect(result.details.symptoms).toEqual([
      { name: 'Weight Loss', weight, severityMultiplier: 1, contribution: weight },
    ]);
  });

  it.each(['HIV', 'TB'] as const)(
    '%s weight gain is not counted at all, neither in the score nor in the factor count',
    (condition) => {
      const result = scoreOf(
        { symptoms: { [condition]: { weightLoss: { present: true, severity: 'gain' } } } },
        condition,
      );
      expect(result).toMatchObject({ factorCount: 0, components: { symptomScore: 0 } });
      expect(result.details.symptoms).toEqual([]);
    },
  );

  it('a weight change present with neither loss nor gain counts with multiplier 1', () => {
    const result = scoreOf({ symptoms: { TB: { weightLoss: { present: true } } } }, 'TB');
    expect(result).toMatchObject({ factorCount: 1, components: { symptomScore: 0.8 } });
  });

  it('an absent symptom adds nothing, whatever its severity', () => {
    const result = scoreOf(
      { symptoms: { Hypertension: { headache: { present: false, severity: 'severe' } } } },
      'Hypertension',
    );
    expect(result).toMatchObject({ factorCount: 0, components: { symptomScore: 0 } });
  });

  it("each condition's symptoms are scored with that condition's weights (fever: HIV 0.8, TB 0.75)", () => {
    const input = {
      symptoms: { HIV: { fever: { present: true } }, TB: { fever: { present: true } } },
    } as const;
    expect(scoreOf(input, 'HIV').components.symptomScore).toBe(0.8);
    expect(scoreOf(input, 'TB').components.symptomScore).toBe(0.75);
  });

  it('the symptom score is the sum of the contributions', () => {
    const result = scoreOf(
      {
        symptoms: {
          Hypertension: {
            headache: { present: true, severity: 'mild' },
            dizziness: { present: true, severity: 'moderate' },
            palpitations: { present: true, severity: 'severe' },
          },
        },
      },
      'Hypertension',
    );
    // 0.75 x 1.5 + 0.7 x 1.75 + 0.55 x 2
    expect(result.components.symptomScore).toBeCloseTo(1.125 + 1.225 + 1.1, 12);
  });
});

describe('decisions 3: comorbidity', () => {
  const diagnosed = (...conditions: Condition[]) => ({
    management: Object.fromEntries(conditions.map((condition) => [condition, { diagnosed: true }])),
  });

  it.each([
    ['HIV', ['TB'], 1],
    ['TB', ['HIV'], 1],
    ['Hypertension', ['DM2'], 1],
    ['Hypertension', ['Hyperlipidaemia'], 1],
    ['Hypertension', ['DM2', 'Hyperlipidaemia'], 2],
    ['Hyperlipidaemia', ['DM2'], 1],
    ['Hyperlipidaemia', ['Hypertension'], 1],
    ['Hyperlipidaemia', ['DM2', 'Hypertension'], 2],
  ] as const)('%s scores 1 for each diagnosed comorbidity of %j', (condition, others, expected) => {
    const result = scoreOf(diagnosed(...others), condition);
    expect(result.components.comorbidityScore).toBe(expected);
    expect(result.totalScore).toBe(expected);
  });

  it('DM2 and Asthma have no comorbidities', () => {
    const others = CONDITIONS.filter((condition) => condition !== 'DM2' && condition !== 'Asthma');
    expect(scoreOf(diagnosed(...others), 'DM2').components.comorbidityScore).toBe(0);
    expect(
      scoreOf({ ...ASTHMA_COUGH, ...diagnosed(...others) }, 'Asthma').components.comorbidityScore,
    ).toBe(0);
  });

  it('a condition that is only answered as not diagnosed adds nothing', () => {
    const result = scoreOf({ management: { TB: { diagnosed: false } } }, 'HIV');
    expect(result.components.comorbidityScore).toBe(0);
  });

  it('a diagnosed condition gets its comorbidity score too', () => {
    const result = scoreOf(diagnosed('HIV', 'TB'), 'HIV');
    expect(result).toMatchObject({ riskStatus: 'DIAGNOSED', components: { comorbidityScore: 1 } });
  });
});

describe('decisions 3: management', () => {
  // Spec 9.3, written out here independently of the rule-set data.
  const visitScores = {
    never: [1.5, 1.5, 1.5, 1.5, 1.5, 1.5],
    '<4months': [0, 0, 0, 0, 0, 0],
    '4-6months': [0, 0, 0, 0.75, 0.75, 0],
    '6-12months': [0, 0, 0, 0.75, 0.75, 0],
    '>12months': [1, 1.25, 1, 1, 1, 1],
  } as const;
  const prescriptionScores = {
    '<4months': [0.75, 1, 1, 0.75, 0.75, 1],
    '4-6months': [0, 0.5, 0.5, 0, 0, 0.5],
    '6-12months': [0, 0, 0, 0, 0, 0],
    '>12months': [0, 0, 0, 0, 0, 0],
  } as const;

  for (const [index, condition] of CONDITIONS.entries()) {
    it.each(Object.entries(visitScores))(
      `${condition}: last visit %s scores as spec 9.3 says`,
      (visit, scores) => {
        const result = scoreOf(
          { management: { [condition]: { diagnosed: true, lastDoctorVisit: visit } } },
          condition,
        );
        expect(result.managementScore).toBe(scores[index]);
      },
    );

    it.each(Object.entries(prescriptionScores))(
      `${condition}: prescription %s scores as spec 9.3 says`,
      (duration, scores) => {
        const result = scoreOf(
          { management: { [condition]: { diagnosed: true, prescriptionDuration: duration } } },
          condition,
        );
        expect(result.managementScore).toBe(scores[index]);
      },
    );
  }

  it('adds the visit score and the prescription score', () => {
    const result = scoreOf(
      {
        management: {
          TB: { diagnosed: true, lastDoctorVisit: '>12months', prescriptionDuration: '4-6months' },
        },
      },
      'TB',
    );
    expect(result.managementScore).toBe(1.5);
    expect(result.components.managementScore).toBe(1.5);
  });

  it.each([
    ['DM2', 1.75],
    ['HIV', 2.25],
    ['TB', 2],
    ['Asthma', 1.75],
    ['Hypertension', 1.75],
    ['Hyperlipidaemia', 2],
  ] as const)('%s caps the management score at %d', (condition, cap) => {
    // never (1.5) + <4months (at least 0.75) exceeds every cap.
    const result = scoreOf(
      {
        management: {
          [condition]: {
            diagnosed: true,
            lastDoctorVisit: 'never',
            prescriptionDuration: '<4months',
          },
        },
      },
      condition,
    );
    expect(result.managementScore).toBe(cap);
    expect(result.details.managementCap).toBe(cap);
  });

  it('a missing choice scores 0', () => {
    const result = scoreOf({ management: { DM2: { diagnosed: true } } }, 'DM2');
    expect(result.managementScore).toBe(0);
    expect(result.details.managementCap).toBe(1.75);
  });

  it('is not scored for a condition that is not diagnosed, and its keys are absent', () => {
    const result = scoreOf(
      {
        management: {
          DM2: { diagnosed: false, lastDoctorVisit: 'never', prescriptionDuration: '<4months' },
        },
      },
      'DM2',
    );
    expect(result.components.managementScore).toBe(0);
    expect(result).not.toHaveProperty('managementScore');
    expect(result.details).not.toHaveProperty('managementCap');
  });
});

describe('decisions 3: total', () => {
  it('total = symptom + risk factor + comorbidity + management', () => {
    const result = scoreOf(
      {
        demographics: { ...NEUTRAL_DEMOGRAPHICS, weight: 95 },
        riskFactors: { familyHistory: { Hypertension: true } },
        symptoms: { Hypertension: { headache: { present: true, severity: 'severe' } } },
        management: {
          DM2: { diagnosed: true },
          Hypertension: { diagnosed: true, lastDoctorVisit: '4-6months' },
        },
      },
      'Hypertension',
    );
    // symptom 0.75 x 2 = 1.5; risk factor 1.8; comorbidity 1 (DM2); management 0.75
    expect(result.components).toEqual({
      symptomScore: 1.5,
      riskFactorScore: 1.8,
      comorbidityScore: 1,
      managementScore: 0.75,
    });
    expect(result.totalScore).toBeCloseTo(5.05, 12);
  });
});

describe('decisions 3: status', () => {
  it.each([
    ['DM2', 2],
    ['HIV', 2],
    ['TB', 2],
    ['Asthma', 2],
    ['Hypertension', 3],
    ['Hyperlipidaemia', 1],
  ] as const)('%s has the threshold %d', (condition, threshold) => {
    expect(scoreOf({}, condition).details.threshold).toBe(threshold);
  });

  it('a factor count below the threshold is FALSE, equal MAYBE, above TRUE', () => {
    const hypertension = (present: readonly boolean[], familyHistory: boolean) =>
      scoreOf(
        {
          riskFactors: { familyHistory: { Hypertension: familyHistory } },
          symptoms: {
            Hypertension: {
              headache: { present: present[0] ?? false },
              dizziness: { present: present[1] ?? false },
              palpitations: { present: present[2] ?? false },
            },
          },
        },
        'Hypertension',
      );
    expect(hypertension([true, true], false)).toMatchObject({
      factorCount: 2,
      riskStatus: 'FALSE',
    });
    expect(hypertension([true, true, true], false)).toMatchObject({
      factorCount: 3,
      riskStatus: 'MAYBE',
    });
    expect(hypertension([true, true, true], true)).toMatchObject({
      factorCount: 4,
      riskStatus: 'TRUE',
    });
  });

  it('DIAGNOSED takes precedence over a factor count above the threshold', () => {
    const result = scoreOf(
      {
        riskFactors: { householdTBExposure: true },
        symptoms: { TB: { coughOver14Days: { present: true }, fever: { present: true } } },
        management: { TB: { diagnosed: true } },
      },
      'TB',
    );
    expect(result).toMatchObject({ factorCount: 3, riskStatus: 'DIAGNOSED' });
  });

  it('Asthma without cough or wheezing is FALSE with zero scores, zero factors and an empty breakdown', () => {
    const result = scoreOf(
      {
        demographics: { ...NEUTRAL_DEMOGRAPHICS, age: 30 },
        riskFactors: { smoking: true, familyHistory: { Asthma: true } },
        symptoms: {
          Asthma: {
            coughOnOff: { present: false },
            wheezing: { present: false, severity: 'severe' },
          },
        },
      },
      'Asthma',
    );
    expect(result).toEqual({
      condition: 'Asthma',
      totalScore: 0,
      factorCount: 0,
      riskStatus: 'FALSE',
      components: { symptomScore: 0, riskFactorScore: 0, comorbidityScore: 0, managementScore: 0 },
      details: { symptoms: [], riskFactors: [], threshold: 2 },
      interpretation:
        'Low risk of Asthma: no cough (on and off) or wheezing reported, and further assessment requires one of them.',
    });
  });

  it('Asthma is scored with either the cough or the wheezing present', () => {
    const withCough = scoreOf({ ...ASTHMA_COUGH, riskFactors: { smoking: true } }, 'Asthma');
    expect(withCough).toMatchObject({ factorCount: 3, riskStatus: 'TRUE' });
    const withWheezing = scoreOf(
      { symptoms: { Asthma: { wheezing: { present: true } } } },
      'Asthma',
    );
    expect(withWheezing).toMatchObject({ factorCount: 2, riskStatus: 'MAYBE' });
  });

  it('reading: a diagnosed Asthma without cough or wheezing is still scored (DIAGNOSED takes precedence)', () => {
    const result = scoreOf(
      {
        riskFactors: { smoking: true },
        management: { Asthma: { diagnosed: true, lastDoctorVisit: '6-12months' } },
      },
      'Asthma',
    );
    // Age under 50 (1.2) and smoking (1.33), with the 6-12 month visit (0.75).
    expect(result).toMatchObject({
      riskStatus: 'DIAGNOSED',
      factorCount: 2,
      managementScore: 0.75,
    });
    expect(result.components.riskFactorScore).toBeCloseTo(2.53, 12);
    expect(result.totalScore).toBeCloseTo(3.28, 12);
  });
});

describe('decisions 3: UNKNOWN (Insufficient Data)', () => {
  it.each([
    ['DM2', 'age'],
    ['DM2', 'height'],
    ['DM2', 'weight'],
    ['HIV', 'gender'],
    ['Asthma', 'age'],
    ['Hyperlipidaemia', 'height'],
    ['Hyperlipidaemia', 'weight'],
  ] as const)('%s would be FALSE and is UNKNOWN while %s is missing', (condition, field) => {
    const demographics: Record<string, unknown> = { ...NEUTRAL_DEMOGRAPHICS };
    delete demographics[field];
    const result = scoreOf({ ...ASTHMA_COUGH, demographics }, condition);
    expect(result.riskStatus).toBe('UNKNOWN');
    expect(result.interpretation).toContain(field);
  });

  it('a MAYBE becomes UNKNOWN too', () => {
    const result = scoreOf(
      {
        demographics: { age: 60, height: 180, weight: 70 },
        symptoms: { HIV: { fever: { present: true }, rash: { present: true } } },
      },
      'HIV',
    );
    expect(result).toMatchObject({ factorCount: 2, riskStatus: 'UNKNOWN' });
  });

  it('TRUE stays TRUE while a field is missing, since more data can only add factors', () => {
    const result = scoreOf(
      {
        demographics: { gender: 'Male' },
        riskFactors: { familyHistory: { DM2: true } },
        symptoms: { DM2: { thirst: { present: true }, hunger: { present: true } } },
      },
      'DM2',
    );
    expect(result).toMatchObject({ factorCount: 3, riskStatus: 'TRUE' });
  });

  it('Asthma without its prerequisite stays FALSE while age is missing', () => {
    expect(scoreOf({ demographics: {} }, 'Asthma').riskStatus).toBe('FALSE');
  });

  it('a diagnosed condition stays DIAGNOSED while a field is missing', () => {
    expect(
      scoreOf({ demographics: {}, management: { DM2: { diagnosed: true } } }, 'DM2').riskStatus,
    ).toBe('DIAGNOSED');
  });

  it('a field the condition does not read leaves its status alone', () => {
    const result = score({ demographics: { gender: 'Male' } });
    expect(result.conditions.map((condition) => condition.riskStatus)).toEqual([
      'UNKNOWN',
      'FALSE',
      'FALSE',
      'FALSE',
      'FALSE',
      'UNKNOWN',
    ]);
  });

  it('an unanswered risk-factor question is not a missing demographic field', () => {
    expect(scoreOf({ riskFactors: {} }, 'TB').riskStatus).toBe('FALSE');
    // Cough and age under 50: two factors, at the threshold.
    expect(scoreOf({ ...ASTHMA_COUGH, riskFactors: {} }, 'Asthma').riskStatus).toBe('MAYBE');
  });
});

describe('interpretation', () => {
  it('TRUE: names the condition, the factor count and the threshold', () => {
    const result = scoreOf(
      {
        demographics: { ...NEUTRAL_DEMOGRAPHICS, age: 60, weight: 90 },
        riskFactors: { familyHistory: { DM2: true } },
      },
      'DM2',
    );
    expect(result.interpretation).toBe(
      'High risk of Type 2 Diabetes: 3 factors against a threshold of 2. Clinical evaluation and confirmatory testing recommended.',
    );
  });

  it('gives a sentence per status', () => {
    const result = score({
      demographics: { age: 30, gender: 'Female', height: 170 },
      riskFactors: { householdTBExposure: true },
      management: { Hypertension: { diagnosed: true } },
    });
    expect(result.conditions.map((condition) => condition.interpretation)).toEqual([
      'Insufficient data for Type 2 Diabetes: weight not recorded; 0 factors against a threshold of 2 so far. Complete the demographics to assess the risk.',
      'Low risk of HIV: 1 factor against a threshold of 2. Routine screening as usual.',
      'Low risk of TB: 1 factor against a threshold of 2. Routine screening as usual.',
      'Low risk of Asthma: no cough (on and off) or wheezing reported, and further assessment requires one of them.',
      'Hypertension diagnosed: continue management and regular follow-up.',
      'Insufficient data for Hyperlipidaemia: weight not recorded; 0 factors against a threshold of 1 so far. Complete the demographics to assess the risk.',
    ]);
  });

  it('MAYBE: says the count equals the threshold', () => {
    expect(
      scoreOf({ riskFactors: { familyHistory: { Hyperlipidaemia: true } } }, 'Hyperlipidaemia')
        .interpretation,
    ).toBe(
      'Moderate risk of Hyperlipidaemia: 1 factor, equal to the threshold of 1. Monitoring and follow-up screening advised.',
    );
  });

  it('UNKNOWN: lists every missing field', () => {
    expect(scoreOf({ demographics: { gender: 'Male' } }, 'DM2').interpretation).toContain(
      'age, height and weight not recorded',
    );
  });
});
