import type { LastDoctorVisit, PrescriptionDuration } from '../engine/index.ts';

/**
 * How figures and answers read wherever they are shown: on the screens, in reports and exports.
 * Display precision of spec 9.1: scores to 4 decimals, comorbidity to 2, BMI to 1.
 */
export const formatScore = (value: number): string => value.toFixed(4);
export const formatComorbidity = (value: number): string => value.toFixed(2);
export const formatBmi = (value: number): string => value.toFixed(1);

/** An answer the nurse did not give. */
export const notRecorded = 'Not recorded';

export const lastDoctorVisitLabels: Record<LastDoctorVisit, string> = {
  never: 'Never',
  '<4months': 'Less than 4 months ago',
  '4-6months': '4-6 months ago',
  '6-12months': '6-12 months ago',
  '>12months': 'More than 12 months ago',
};

export const prescriptionDurationLabels: Record<PrescriptionDuration, string> = {
  '<4months': 'Less than 4 months',
  '4-6months': '4-6 months',
  '6-12months': '6-12 months',
  '>12months': 'More than 12 months',
};
