import { describe, expect, it } from 'vitest';
import guidelines20 from './rule-sets/2.0.json' with { type: 'json' };
import { checkRuleSets, parseRuleSets, RULE_SETS, ruleSetSchema } from './index.ts';

/** A deep copy of the 2.0 file's data, to break in one place. */
function copy(): Record<string, unknown> & typeof guidelines20 {
  return structuredClone(guidelines20);
}

/** What loading the file says: the thrown message, one line per fault after the first. */
function refusal(data: unknown, fileName = '2.0.json'): string {
  try {
    parseRuleSets([{ fileName, data }]);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the rule set to be refused');
}

describe('the rule set schema', () => {
  it('accepts every file this build ships, and the engine scores with them exactly as checked', () => {
    expect(() => checkRuleSets()).not.toThrow();
    const files = RULE_SETS.map((ruleSet) => ({
      fileName: `${ruleSet.version}.json`,
      data: structuredClone(ruleSet),
    }));
    // Checking changes nothing (no defaults, no transforms): what a browser uses unchecked is
    // what the tests and every start checked.
    expect(parseRuleSets(files)).toEqual(RULE_SETS);
    expect(RULE_SETS.every((ruleSet) => Object.isFrozen(ruleSet))).toBe(true);
  });

  it('accepts the 2.0 file as it is', () => {
    expect(ruleSetSchema.safeParse(guidelines20).success).toBe(true);
    expect(parseRuleSets([{ fileName: '2.0.json', data: guidelines20 }])[0]).toEqual(guidelines20);
  });

  it('names the file and the path of a value of the wrong type', () => {
    const data = copy();
    (data.conditions.DM2.symptoms[0] as { weight: unknown }).weight = '0.85';
    expect(refusal(data)).toContain(
      '2.0.json: conditions.DM2.symptoms.0.weight: Invalid input: expected number, received string',
    );
  });

  it('refuses a missing threshold', () => {
    const data = copy();
    delete (data.conditions.TB as { threshold?: number }).threshold;
    expect(refusal(data)).toContain('2.0.json: conditions.TB.threshold: Invalid input');
  });

  it('refuses a negative weight, multiplier or score', () => {
    const data = copy();
    data.conditions.Asthma.riskFactors[1]!.weight = -1.33;
    data.severityMultipliers.mild = -1;
    data.conditions.HIV.lastDoctorVisitScores.never = -0.5;
    const message = refusal(data);
    expect(message).toContain('2.0.json: conditions.Asthma.riskFactors.1.weight: Too small');
    expect(message).toContain('2.0.json: severityMultipliers.mild: Too small');
    expect(message).toContain('2.0.json: conditions.HIV.lastDoctorVisitScores.never: Too small');
  });

  it('refuses an unknown symptom key: the symptoms are the catalogue, a rule set weighs them', () => {
    const data = copy();
    data.conditions.DM2.symptoms[3]!.key = 'appetite';
    expect(refusal(data)).toContain(
      "2.0.json: conditions.DM2.symptoms.3: Expected the symptom catalogue's questions in order: " +
        'fatigue (severity), thirst (severity), frequentUrination (none), hunger (severity); ' +
        'found fatigue (severity), thirst (severity), frequentUrination (none), appetite (severity)',
    );
  });

  it('refuses a missing symptom, a changed scale and a symptom for the asymptomatic condition', () => {
    const missing = copy();
    missing.conditions.Hypertension.symptoms.pop();
    expect(refusal(missing)).toContain('2.0.json: conditions.Hypertension.symptoms.2: Expected');
    const rescaled = copy();
    rescaled.conditions.TB.symptoms[0]!.scale = 'severity';
    expect(refusal(rescaled)).toContain('2.0.json: conditions.TB.symptoms.0: Expected');
    const added = copy();
    (added.conditions.Hyperlipidaemia.symptoms as unknown[]).push({
      key: 'fatigue',
      name: 'Fatigue',
      weight: 1,
      scale: 'severity',
    });
    expect(refusal(added)).toContain(
      '2.0.json: conditions.Hyperlipidaemia.symptoms: Expected the symptom catalogue',
    );
  });

  it('refuses unknown fields, conditions and criterion kinds', () => {
    const data = copy();
    (data as Record<string, unknown>).author = 'someone';
    (data.conditions as Record<string, unknown>).Gout = data.conditions.DM2;
    (data.conditions.DM2.riskFactors[0]!.criterion as { kind: string }).kind = 'ageAbove';
    const message = refusal(data);
    expect(message).toContain('2.0.json: (file): Unrecognized key: "author"');
    expect(message).toContain('2.0.json: conditions: Unrecognized key: "Gout"');
    expect(message).toContain(
      "2.0.json: conditions.DM2.riskFactors.0.criterion.kind: Invalid discriminator value. Expected 'ageAtLeast'",
    );
  });

  it('refuses a prerequisite that is not a symptom of the condition', () => {
    const data = copy();
    data.conditions.Asthma.prerequisiteSymptoms = ['coughOnOff', 'fever'];
    expect(refusal(data)).toContain(
      '2.0.json: conditions.Asthma.prerequisiteSymptoms.1: Unknown symptom fever for Asthma',
    );
  });

  it('refuses demographic fields other than those the risk factors read', () => {
    const data = copy();
    data.conditions.DM2.demographicFieldsRead = ['age'];
    expect(refusal(data)).toContain(
      '2.0.json: conditions.DM2.demographicFieldsRead: Expected exactly the fields the risk factors read: age, height, weight',
    );
  });

  it('refuses a duplicate risk factor and a condition listed as its own comorbidity', () => {
    const data = copy();
    data.conditions.DM2.riskFactors.push(data.conditions.DM2.riskFactors[0]!);
    data.conditions.TB.comorbidities = ['HIV', 'TB'];
    const message = refusal(data);
    expect(message).toContain('2.0.json: conditions.DM2.riskFactors.3.key: Duplicate risk factor');
    expect(message).toContain('2.0.json: conditions.TB.comorbidities: A condition cannot be');
  });

  it('refuses a name that is not plain ASCII, which would slow serializing results', () => {
    const data = copy();
    data.conditions.DM2.riskFactors[0]!.name = 'Age ≥ 50';
    expect(refusal(data)).toContain(
      '2.0.json: conditions.DM2.riskFactors.0.name: Expected a non-empty name of plain ASCII',
    );
  });

  it('refuses a version that does not name its file, and a duplicate version', () => {
    expect(refusal({ ...copy(), version: '2.1' })).toBe(
      '2.0.json: version: The file of version 2.1 must be named 2.1.json',
    );
    expect(() =>
      parseRuleSets([
        { fileName: '2.0.json', data: guidelines20 },
        { fileName: '2.0.json', data: guidelines20 },
      ]),
    ).toThrow('2.0.json: version: Duplicate rule set version 2.0');
    expect(refusal({ ...copy(), version: '2.0/../x' }, '2.0/../x.json')).toContain(
      'version: Expected letters, digits, dots and dashes',
    );
  });
});
