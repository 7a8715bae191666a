import { calculateBMI, isAssessmentComplete } from './demographics.ts';
import type {
  Demographics,
  ManagementAnswer,
  ManagementAnswers,
  PatientData,
  RiskFactorAnswers,
  SymptomAnswer,
} from './input.ts';
import { interpretMissingPrerequisite, interpretStatus } from './interpretation.ts';
import { DEFAULT_RULE_SET } from './rule-sets.ts';
import { CONDITIONS } from './types.ts';
import type {
  AssessmentResult,
  Condition,
  ConditionResult,
  ConditionRules,
  DemographicField,
  RiskFactorCriterion,
  RiskFactorDetail,
  RiskStatus,
  RuleSet,
  SymptomDetail,
  SymptomScale,
} from './types.ts';

/** A condition's symptom answers, looked up by the keys its rules list. */
type AnswersByKey = Readonly<Record<string, SymptomAnswer | undefined>>;

/** What the risk-factor criteria read, gathered once per assessment. */
interface PatientFacts {
  readonly demographics: Demographics;
  readonly bmi: number;
  readonly riskFactors: RiskFactorAnswers;
  readonly management: ManagementAnswers;
}

/**
 * Scores an assessment: the result of spec 3.3 for the six conditions, under the rules of the
 * given rule set (by default Clinical Guidelines Version 2.0). Pure: the same input always gives
 * the same result. Numbers are not rounded.
 */
export function score(input: PatientData, ruleSet: RuleSet = DEFAULT_RULE_SET): AssessmentResult {
  const demographics = input.demographics ?? {};
  const facts: PatientFacts = {
    demographics,
    bmi: calculateBMI(demographics.height, demographics.weight),
    riskFactors: input.riskFactors ?? {},
    management: input.management ?? {},
  };
  const conditions: ConditionResult[] = [];
  let totalScore = 0;
  for (const condition of CONDITIONS) {
    const answers: AnswersByKey = input.symptoms?.[condition] ?? {};
    const result = scoreCondition(condition, ruleSet, answers, facts);
    conditions.push(result);
    totalScore += result.totalScore;
  }
  return {
    conditions,
    patientBMI: facts.bmi,
    assessmentComplete: isAssessmentComplete(input.demographics),
    totalScore,
    ruleSetVersion: ruleSet.version,
  };
}

function scoreCondition(
  condition: Condition,
  ruleSet: RuleSet,
  answers: AnswersByKey,
  facts: PatientFacts,
): ConditionResult {
  const rules = ruleSet.conditions[condition];
  const management = facts.management[condition];
  const diagnosed = management?.diagnosed === true;
  // A diagnosis takes precedence over the prerequisite: a diagnosed condition is always scored.
  if (!diagnosed && !prerequisiteMet(rules, answers)) {
    return missingPrerequisiteResult(condition, rules);
  }

  let factorCount = 0;
  let symptomScore = 0;
  const symptoms: SymptomDetail[] = [];
  for (const symptom of rules.symptoms) {
    const answer = answers[symptom.key];
    if (answer?.present !== true) continue;
    const multiplier = severityMultiplier(ruleSet, symptom.scale, answer.severity);
    if (multiplier === null) continue;
    const contribution = symptom.weight * multiplier;
    symptoms.push({
      name: symptom.name,
      weight: symptom.weight,
      severityMultiplier: multiplier,
      contribution,
    });
    symptomScore += contribution;
    factorCount++;
  }

  let riskFactorScore = 0;
  const riskFactors: RiskFactorDetail[] = [];
  for (const factor of rules.riskFactors) {
    if (!riskFactorApplies(factor.criterion, facts)) continue;
    riskFactors.push({ name: factor.name, weight: factor.weight });
    riskFactorScore += factor.weight;
    factorCount++;
  }

  let comorbidityScore = 0;
  for (const other of rules.comorbidities) {
    if (facts.management[other]?.diagnosed === true) comorbidityScore += ruleSet.comorbidityScore;
  }

  const managementScore = diagnosed ? cappedManagementScore(rules, management) : 0;

  const missingFields = diagnosed
    ? NONE_MISSING
    : missingDemographicFields(rules, facts.demographics);
  const riskStatus = diagnosed
    ? 'DIAGNOSED'
    : statusFromFactorCount(factorCount, rules.threshold, missingFields.length > 0);
  const components = { symptomScore, riskFactorScore, comorbidityScore, managementScore };
  const totalScore = symptomScore + riskFactorScore + comorbidityScore + managementScore;
  const interpretation = interpretStatus(
    condition,
    riskStatus,
    factorCount,
    rules.threshold,
    missingFields,
  );
  if (diagnosed) {
    return {
      condition,
      totalScore,
      factorCount,
      riskStatus,
      components,
      managementScore,
      details: {
        symptoms,
        riskFactors,
        threshold: rules.threshold,
        managementCap: rules.managementCap,
      },
      interpretation,
    };
  }
  return {
    condition,
    totalScore,
    factorCount,
    riskStatus,
    components,
    details: { symptoms, riskFactors, threshold: rules.threshold },
    interpretation,
  };
}

/** Last-visit score plus prescription score, at most the cap; a missing choice scores 0. */
function cappedManagementScore(rules: ConditionRules, management: ManagementAnswer): number {
  const visitScore =
    management.lastDoctorVisit === undefined
      ? 0
      : rules.lastDoctorVisitScores[management.lastDoctorVisit];
  const prescriptionScore =
    management.prescriptionDuration === undefined
      ? 0
      : rules.prescriptionDurationScores[management.prescriptionDuration];
  return Math.min(rules.managementCap, visitScore + prescriptionScore);
}

function prerequisiteMet(rules: ConditionRules, answers: AnswersByKey): boolean {
  if (rules.prerequisiteSymptoms.length === 0) return true;
  for (const key of rules.prerequisiteSymptoms) {
    if (answers[key]?.present === true) return true;
  }
  return false;
}

/** FALSE with zero scores, zero factors and an empty breakdown (decisions 3). */
function missingPrerequisiteResult(condition: Condition, rules: ConditionRules): ConditionResult {
  const prerequisiteNames = rules.symptoms
    .filter((symptom) => rules.prerequisiteSymptoms.includes(symptom.key))
    .map((symptom) => symptom.name);
  return {
    condition,
    totalScore: 0,
    factorCount: 0,
    riskStatus: 'FALSE',
    components: { symptomScore: 0, riskFactorScore: 0, comorbidityScore: 0, managementScore: 0 },
    details: { symptoms: [], riskFactors: [], threshold: rules.threshold },
    interpretation: interpretMissingPrerequisite(condition, prerequisiteNames),
  };
}

/**
 * The multiplier of a present symptom, or null when the answer is not counted at all (a weight
 * gain). A severity outside the symptom's scale, which the input schema refuses, counts as none.
 */
function severityMultiplier(
  ruleSet: RuleSet,
  scale: SymptomScale,
  severity: SymptomAnswer['severity'],
): number | null {
  switch (scale) {
    case 'none':
      return ruleSet.unratedMultiplier;
    case 'weightChange':
      return severity === 'loss' || severity === 'gain'
        ? ruleSet.weightChangeMultipliers[severity]
        : ruleSet.unratedMultiplier;
    case 'severity':
      return severity === 'mild' || severity === 'moderate' || severity === 'severe'
        ? ruleSet.severityMultipliers[severity]
        : ruleSet.unratedMultiplier;
  }
}

function riskFactorApplies(criterion: RiskFactorCriterion, facts: PatientFacts): boolean {
  const { age, gender } = facts.demographics;
  switch (criterion.kind) {
    case 'ageAtLeast':
      return age !== undefined && age >= criterion.years;
    case 'ageBetween':
      return age !== undefined && age > criterion.above && age < criterion.below;
    case 'bmiAbove':
      return facts.bmi > criterion.bmi;
    case 'gender':
      return gender === criterion.gender;
    case 'smoking':
      return facts.riskFactors.smoking === true;
    case 'familyHistory':
      return facts.riskFactors.familyHistory?.[criterion.condition] === true;
    case 'householdTBExposure':
      return facts.riskFactors.householdTBExposure === true;
  }
}

const NONE_MISSING: readonly DemographicField[] = [];

/** Written as a loop that allocates only when a field is missing: this runs for every condition. */
function missingDemographicFields(
  rules: ConditionRules,
  demographics: Demographics,
): readonly DemographicField[] {
  let missing: DemographicField[] | undefined;
  for (const field of rules.demographicFieldsRead) {
    if (demographics[field] === undefined) (missing ??= []).push(field);
  }
  return missing ?? NONE_MISSING;
}

/**
 * Below the threshold FALSE, at it MAYBE, above it TRUE. A FALSE or MAYBE is UNKNOWN while a
 * demographic field the risk factors read is missing, since the answer could add a factor; TRUE
 * stands, since more data can only add factors.
 */
function statusFromFactorCount(
  factorCount: number,
  threshold: number,
  demographicsMissing: boolean,
): RiskStatus {
  if (factorCount > threshold) return 'TRUE';
  if (demographicsMissing) return 'UNKNOWN';
  return factorCount === threshold ? 'MAYBE' : 'FALSE';
}
