const CODE_PATTERN = /^ASS-[0-9A-Z]+-[0-9A-Z]{4}$/;
const RANDOM_PART_LENGTH = 4;

/**
 * An assessment code (spec 3.4): ASS-{time in base 36}-{4 random base-36 characters}, upper case.
 * The caller passes the time and the source of randomness (such as Math.random), which keeps the
 * engine free of both.
 */
export function generateAssessmentCode(nowMs: number, random: () => number): string {
  if (!Number.isSafeInteger(nowMs) || nowMs < 0) {
    throw new RangeError(`nowMs must be a non-negative whole number of milliseconds, got ${nowMs}`);
  }
  let randomPart = '';
  for (let i = 0; i < RANDOM_PART_LENGTH; i++) {
    const r = random();
    if (!(r >= 0 && r < 1))
      throw new RangeError(`random() must return a number in [0, 1), got ${r}`);
    randomPart += Math.floor(r * 36).toString(36);
  }
  return `ASS-${nowMs.toString(36)}-${randomPart}`.toUpperCase();
}

export function isAssessmentCode(value: string): boolean {
  return CODE_PATTERN.test(value);
}
