import type { AssessmentSummary } from '../../../shared/api/assessments.ts';
import { screenBmi } from '../../format.ts';

/** The history row's texts, with the spec's precision (section 9.1): BMI 1 decimal, score 4. */
export function genderAndAge({ gender, age }: Pick<AssessmentSummary, 'gender' | 'age'>): string {
  const ageText = age === null ? 'age not recorded' : `${age} years`;
  return `${gender ?? 'Gender not recorded'}, ${ageText}`;
}

export function bmiText(bmi: number): string {
  return `BMI ${screenBmi(bmi)}`;
}

export function totalScoreText(totalScore: number): string {
  return `Total score ${totalScore.toFixed(4)}`;
}

/** 'Found X of Y assessments' (spec section 2.4). */
export function foundText(total: number, overallTotal: number): string {
  return `Found ${total} of ${overallTotal} assessments`;
}

/** Bytes received so far, as a person reads them. */
export function byteCountText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
