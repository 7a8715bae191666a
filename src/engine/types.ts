/** Value sets of the product (spec 3.6) and the shapes of rule sets and results (spec 3.3). */

export const CONDITIONS = [
  'DM2',
  'HIV',
  'TB',
  'Asthma',
  'Hypertension',
  'Hyperlipidaemia',
] as const;
export type Condition = (typeof CONDITIONS)[number];

export const CONDITION_DISPLAY_NAMES = {
  DM2: 'Type 2 Diabetes',
  HIV: 'HIV',
  TB: 'TB',
  Asthma: 'Asthma',
  Hypertension: 'Hypertension',
  Hyperlipidaemia: 'Hyperlipidaemia',
} as const satisfies Record<Condition, string>;

/** Conditions the risk-factor step asks a family history for. */
export const FAMILY_HISTORY_CONDITIONS = [
  'DM2',
  'Asthma',
  'Hypertension',
  'Hyperlipidaemia',
] as const;
export type FamilyHistoryCondition = (typeof FAMILY_HISTORY_CONDITIONS)[number];

export const GENDERS = ['Male', 'Female'] as const;
export type Gender = (typeof GENDERS)[number];

export const DEMOGRAPHIC_FIELDS = ['age', 'gender', 'height', 'weight'] as const;
export type DemographicField = (typeof DEMOGRAPHIC_FIELDS)[number];

export const SEVERITIES = ['mild', 'moderate', 'severe'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const WEIGHT_CHANGES = ['loss', 'gain'] as const;
export type WeightChange = (typeof WEIGHT_CHANGES)[number];

/**
 * How a symptom is rated: on the mild/moderate/severe scale, as a weight loss or gain, or not at
 * all (the symptom only counts as present or absent).
 */
export type SymptomScale = 'severity' | 'weightChange' | 'none';

export const LAST_DOCTOR_VISIT_OPTIONS = [
  'never',
  '<4months',
  '4-6months',
  '6-12months',
  '>12months',
] as const;
export type LastDoctorVisit = (typeof LAST_DOCTOR_VISIT_OPTIONS)[number];

export const PRESCRIPTION_DURATION_OPTIONS = [
  '<4months',
  '4-6months',
  '6-12months',
  '>12months',
] as const;
export type PrescriptionDuration = (typeof PRESCRIPTION_DURATION_OPTIONS)[number];

export const RISK_STATUSES = ['FALSE', 'MAYBE', 'TRUE', 'DIAGNOSED', 'UNKNOWN'] as const;
export type RiskStatus = (typeof RISK_STATUSES)[number];

export const RISK_STATUS_LABELS = {
  FALSE: 'Low Risk',
  MAYBE: 'Moderate Risk',
  TRUE: 'High Risk',
  DIAGNOSED: 'Diagnosed',
  UNKNOWN: 'Insufficient Data',
} as const satisfies Record<RiskStatus, string>;

export interface SymptomRule {
  readonly key: string;
  readonly name: string;
  readonly weight: number;
  readonly scale: SymptomScale;
}

/** When a risk factor applies, as data so that a rule set can be stored and shown. */
export type RiskFactorCriterion =
  | { readonly kind: 'ageAtLeast'; readonly years: number }
  /** Both bounds exclusive. */
  | { readonly kind: 'ageBetween'; readonly above: number; readonly below: number }
  | { readonly kind: 'bmiAbove'; readonly bmi: number }
  | { readonly kind: 'gender'; readonly gender: Gender }
  | { readonly kind: 'smoking' }
  | { readonly kind: 'familyHistory'; readonly condition: FamilyHistoryCondition }
  | { readonly kind: 'householdTBExposure' };

export interface RiskFactorRule {
  readonly key: string;
  readonly name: string;
  readonly weight: number;
  readonly criterion: RiskFactorCriterion;
}

export interface ConditionRules {
  /** Factor count at which the status is MAYBE; below is FALSE, above is TRUE. */
  readonly threshold: number;
  readonly managementCap: number;
  readonly symptoms: readonly SymptomRule[];
  /**
   * Symptom keys of which one must be present before anything else is scored (Asthma's cough or
   * wheezing); empty when the condition has no prerequisite.
   */
  readonly prerequisiteSymptoms: readonly string[];
  readonly riskFactors: readonly RiskFactorRule[];
  /**
   * The demographic fields the risk factors read: while one is missing, a FALSE or MAYBE status
   * is UNKNOWN, because the missing answer could still add a factor.
   */
  readonly demographicFieldsRead: readonly DemographicField[];
  /** Other conditions that add the comorbidity score when diagnosed. */
  readonly comorbidities: readonly Condition[];
  readonly lastDoctorVisitScores: Readonly<Record<LastDoctorVisit, number>>;
  readonly prescriptionDurationScores: Readonly<Record<PrescriptionDuration, number>>;
}

export interface RuleSet {
  readonly version: string;
  readonly name: string;
  readonly severityMultipliers: Readonly<Record<Severity, number>>;
  /** null: the answer is not counted at all, neither in the score nor in the factor count. */
  readonly weightChangeMultipliers: Readonly<Record<WeightChange, number | null>>;
  /** For a present symptom with no severity given, or one without a severity scale. */
  readonly unratedMultiplier: number;
  /** Score added for each listed comorbidity that is diagnosed. */
  readonly comorbidityScore: number;
  readonly conditions: Readonly<Record<Condition, ConditionRules>>;
}

export interface SymptomDetail {
  name: string;
  weight: number;
  severityMultiplier: number;
  contribution: number;
}

export interface RiskFactorDetail {
  name: string;
  weight: number;
}

export interface ScoreComponents {
  symptomScore: number;
  riskFactorScore: number;
  comorbidityScore: number;
  managementScore: number;
}

export interface ConditionResult {
  condition: Condition;
  totalScore: number;
  factorCount: number;
  riskStatus: RiskStatus;
  components: ScoreComponents;
  /** Present only when the condition is diagnosed. */
  managementScore?: number;
  details: {
    symptoms: SymptomDetail[];
    riskFactors: RiskFactorDetail[];
    threshold: number;
    /** Present only when the condition is diagnosed. */
    managementCap?: number;
  };
  interpretation: string;
}

export interface AssessmentResult {
  /** In the order of CONDITIONS. */
  conditions: ConditionResult[];
  patientBMI: number;
  assessmentComplete: boolean;
  /** Sum of the condition totals. */
  totalScore: number;
  ruleSetVersion: string;
}
