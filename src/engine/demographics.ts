import type { Demographics } from './input.ts';

/**
 * Body mass index, weight / (height in m)^2, unrounded (display rounds). 0 when height or weight
 * is missing, as spec 5 says; also 0 for a height that is not positive, rather than Infinity.
 */
export function calculateBMI(heightCm: number | undefined, weightKg: number | undefined): number {
  if (heightCm === undefined || weightKg === undefined || !(heightCm > 0)) return 0;
  const heightM = heightCm / 100;
  return weightKg / (heightM * heightM);
}

/** True when age, gender, height and weight are all given (spec 5). */
export function isAssessmentComplete(demographics: Demographics | undefined): boolean {
  return (
    demographics !== undefined &&
    demographics.age !== undefined &&
    demographics.gender !== undefined &&
    demographics.height !== undefined &&
    demographics.weight !== undefined
  );
}
