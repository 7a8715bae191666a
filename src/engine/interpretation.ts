import { CONDITION_DISPLAY_NAMES, CONDITIONS, DEMOGRAPHIC_FIELDS, RISK_STATUSES } from './types.ts';
import type { Condition, DemographicField, RiskStatus } from './types.ts';

/**
 * Sentences made before, by a whole-number key of their arguments. The same few come back for
 * every assessment; handing back the same string also lets a serializer recognise it at once.
 */
const sentences = new Map<number, string>();

/** The clinical interpretation sentence of a condition result. */
export function interpretStatus(
  condition: Condition,
  status: RiskStatus,
  factorCount: number,
  threshold: number,
  missingFields: readonly DemographicField[],
): string {
  const key = sentenceKey(condition, status, factorCount, threshold, missingFields);
  let sentence = key === undefined ? undefined : sentences.get(key);
  if (sentence === undefined) {
    sentence = statusSentence(condition, status, factorCount, threshold, missingFields);
    if (key !== undefined) sentences.set(key, sentence);
  }
  return sentence;
}

/**
 * Condition, status, factor count, threshold and the missing fields in their order, in one whole
 * number; undefined for counts or thresholds too large or not whole, or more than four missing
 * fields (possible in a rule set, never in 2.0), whose sentences are made every time.
 */
function sentenceKey(
  condition: Condition,
  status: RiskStatus,
  factorCount: number,
  threshold: number,
  missingFields: readonly DemographicField[],
): number | undefined {
  if (!isSmallWholeNumber(factorCount) || !isSmallWholeNumber(threshold)) return undefined;
  if (missingFields.length > 4) return undefined;
  // Three bits a field, numbered from 1, so that every list of fields has its own number.
  let fields = 0;
  for (const field of missingFields) fields = fields * 8 + DEMOGRAPHIC_FIELDS.indexOf(field) + 1;
  const conditionStatus =
    CONDITIONS.indexOf(condition) * RISK_STATUSES.length + RISK_STATUSES.indexOf(status);
  return ((conditionStatus * 64 + factorCount) * 64 + threshold) * 4096 + fields;
}

function isSmallWholeNumber(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value < 64;
}

function statusSentence(
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
  const key = JSON.stringify([condition, ...prerequisiteNames]);
  let sentence = prerequisiteSentences.get(key);
  if (sentence === undefined) {
    sentence = missingPrerequisiteSentence(condition, prerequisiteNames);
    prerequisiteSentences.set(key, sentence);
  }
  return sentence;
}

/** Missing-prerequisite sentences made before, by condition and symptom names. */
const prerequisiteSentences = new Map<string, string>();

function missingPrerequisiteSentence(
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
