import {
  type ConditionRules,
  type LastDoctorVisit,
  type PrescriptionDuration,
  type RiskStatus,
  type Severity,
  type WeightChange,
} from '../../../engine/index.ts';
import {
  formatScore,
  lastDoctorVisitLabels,
  prescriptionDurationLabels,
} from '../../../shared/display.ts';

/** A management option's score, as the option lists show it (spec 9.3: 'never 1.50'). */
export function formatOptionScore(value: number): string {
  return value.toFixed(2);
}

/** The note under the live BMI (spec 2.6). */
export function bmiNote(bmi: number): string {
  return bmi > 25 ? 'BMI >25 will be considered in risk calculations' : 'BMI ≤25';
}

/**
 * Status colours of spec 3.6 as badge colours whose text meets the WCAG AA contrast ratio: yellow
 * takes dark text, the others white. Mantine's darkest green falls just short with white text, so
 * Low Risk uses a darker green of its own.
 */
export const safeGreen = '#237a36';

export const riskStatusColors: Record<RiskStatus, string> = {
  TRUE: 'red.9',
  MAYBE: 'yellow.4',
  FALSE: safeGreen,
  DIAGNOSED: 'grape.9',
  UNKNOWN: 'gray.7',
};

/** Orange text for warnings ('Unsaved changes', 'Incomplete'); Mantine's orange is too light. */
export const safeOrange = '#b33d0a';

/** The grid 'Conditions Requiring Attention' lists TRUE, MAYBE and DIAGNOSED only (spec 2.6). */
export function needsAttention(status: RiskStatus): boolean {
  return status === 'TRUE' || status === 'MAYBE' || status === 'DIAGNOSED';
}

export const severityLabels: Record<Severity, string> = {
  mild: 'Mild',
  moderate: 'Moderate',
  severe: 'Severe',
};

export const weightChangeLabels: Record<WeightChange, string> = {
  loss: 'Weight Loss',
  gain: 'Weight Gain',
};

/** An option with the score it adds under the condition's rules, such as 'Never (1.50)'. */
export function lastDoctorVisitOption(rules: ConditionRules, option: LastDoctorVisit): string {
  const score = rules.lastDoctorVisitScores[option];
  return `${lastDoctorVisitLabels[option]} (${formatOptionScore(score)})`;
}

export function prescriptionDurationOption(
  rules: ConditionRules,
  option: PrescriptionDuration,
): string {
  const score = rules.prescriptionDurationScores[option];
  return `${prescriptionDurationLabels[option]} (${formatOptionScore(score)})`;
}

/** 'Increased Thirst: 0.75 × 1.75 = 1.3125' */
export function symptomContribution(symptom: {
  name: string;
  weight: number;
  severityMultiplier: number;
  contribution: number;
}): string {
  return `${symptom.name}: ${symptom.weight} × ${symptom.severityMultiplier} = ${formatScore(symptom.contribution)}`;
}
