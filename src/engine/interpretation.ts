import { CONDITION_DISPLAY_NAMES } from './types.ts';
import type { Condition, DemographicField, RiskStatus } from './types.ts';

/** The clinical interpretation sentence of a condition result. */
export function interpretStatus(
  condition: Condition,
  status: RiskStatus,
  factorCount: number,
  threshold: number,
  missingFields: readonly DemographicField[],
): string {
  const name = CONDITION_DISPLAY_NAMES[condition];
  const factors = `${factorCount} ${factorCount === 1 ? 'factor' : 'factors'}`;
  switch (status) {
    case 'DIAGNOSED':
      return `${name} diagnosed: continue management and regular follow-up.`;
    case 'TRUE':
      return `High risk of ${name}: ${factors} against a threshold of ${threshold}. Clinical evaluation and confirmatory testing recommended.`;
    case 'MAYBE':
      return `Moderate risk of ${name}: ${factors}, equal to the threshold of ${threshold}. Monitoring and follow-up screening advised.`;
    case 'FALSE':
      return `Low risk of ${name}: ${factors} against a threshold of ${threshold}. Routine screening as usual.`;
    case 'UNKNOWN':
      return `Insufficient data for ${name}: ${listInWords(missingFields)} not recorded; ${factors} against a threshold of ${threshold} so far. Complete the demographics to assess the risk.`;
  }
}

/** For a condition that needs one of some symptoms (Asthma: cough or wheezing) and has none. */
export function interpretMissingPrerequisite(
  condition: Condition,
  prerequisiteNames: readonly string[],
): string {
  const name = CONDITION_DISPLAY_NAMES[condition];
  const symptoms = listInWords(
    prerequisiteNames.map((symptom) => symptom.toLowerCase()),
    'or',
  );
  return `Low risk of ${name}: no ${symptoms} reported, and further assessment requires one of them.`;
}

function listInWords(items: readonly string[], conjunction = 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items.slice(-1).join('')}`;
}
