export { generateAssessmentCode, isAssessmentCode } from './assessment-code.ts';
export { calculateBMI, isAssessmentComplete } from './demographics.ts';
export type {
  ConditionSymptomAnswers,
  Demographics,
  ManagementAnswer,
  ManagementAnswers,
  PatientData,
  RiskFactorAnswers,
  SeverityOn,
  SymptomAnswer,
  SymptomAnswers,
  SymptomKey,
} from './input.ts';
export { score } from './score.ts';
export {
  CONDITION_DISPLAY_NAMES,
  CONDITIONS,
  DEMOGRAPHIC_FIELDS,
  FAMILY_HISTORY_CONDITIONS,
  GENDERS,
  LAST_DOCTOR_VISIT_OPTIONS,
  PRESCRIPTION_DURATION_OPTIONS,
  RISK_STATUS_LABELS,
  RISK_STATUSES,
  SEVERITIES,
  WEIGHT_CHANGES,
} from './types.ts';
export type {
  AssessmentResult,
  Condition,
  ConditionResult,
  ConditionRules,
  DemographicField,
  FamilyHistoryCondition,
  Gender,
  LastDoctorVisit,
  PrescriptionDuration,
  RiskFactorCriterion,
  RiskFactorDetail,
  RiskFactorRule,
  RiskStatus,
  RuleSet,
  ScoreComponents,
  Severity,
  SymptomDetail,
  SymptomRule,
  SymptomScale,
  WeightChange,
} from './types.ts';
export {
  checkRuleSets,
  DEFAULT_RULE_SET,
  isKnownRuleSetVersion,
  RULE_SETS,
  ruleSetByVersion,
} from './rule-sets.ts';
export { parseRuleSets, ruleSetSchema, type RuleSetFile } from './rule-set-schema.ts';
export { SYMPTOM_CATALOGUE, type CatalogueSymptom } from './symptom-catalogue.ts';
