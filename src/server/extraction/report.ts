/** The two downloads of an extraction: a plain-text report and a CSV of the matches. */
import { csvRow } from '../csv.ts';
import { BASE_CONFIDENCE } from './patterns.ts';
import { CODE_TYPES, type ExtractionResult, type MatchSource } from './types.ts';

function describeSource(source: MatchSource): string {
  const assessment =
    source.assessmentCode === null
      ? `assessment id ${source.assessmentId}`
      : `assessment ${source.assessmentCode} (id ${source.assessmentId})`;
  if (source.kind === 'assessment_note') return `assessment note of ${assessment}`;
  const review = source.reviewId === undefined ? '' : ` ${source.reviewId}`;
  const condition = source.condition === undefined ? '' : ` on ${source.condition}`;
  return `doctor comment${review}${condition} for ${assessment}`;
}

function describeAssessment(assessmentId: string, assessmentCode: string | null): string {
  return assessmentCode === null
    ? `Assessment id ${assessmentId}`
    : `Assessment ${assessmentCode} (id ${assessmentId})`;
}

export function extractionReportText(result: ExtractionResult, generatedAtIso: string): string {
  const { totals } = result;
  const lines = [
    'NURSE NOTES CODE EXTRACTION REPORT',
    `Generated: ${generatedAtIso}`,
    '',
    'SUMMARY',
    `  Total Notes:      ${totals.totalNotes}`,
    `  Notes with Codes: ${totals.notesWithCodes}`,
    `  Unique Codes:     ${totals.uniqueCodes}`,
    `  Total Matches:    ${totals.totalMatches}`,
    '',
    'COUNTS BY TYPE',
    ...CODE_TYPES.map(
      (type) => `  ${`${type} (${BASE_CONFIDENCE[type]})`.padEnd(26)} ${result.countsByType[type]}`,
    ),
    '',
    'CHECKS',
    ...(result.notes.length === 0
      ? ['  Every matched code passed its check or has none.']
      : result.notes.map((note) => `  - ${note}`)),
    '',
    'POSSIBLE INCONSISTENCIES (for a clinician to review)',
    ...(result.inconsistencies.length === 0
      ? ['  None found.']
      : result.inconsistencies.flatMap((item) => [
          `  - ${describeAssessment(item.assessmentId, item.assessmentCode)}: a note carries ` +
            `${item.code} (${item.condition}) but the assessment records ${item.condition} as not diagnosed.`,
          `    Context: ${item.context}`,
        ])),
    '',
    'MATCHES',
    ...(result.matches.length === 0
      ? ['  No codes found.']
      : result.matches.flatMap((match, index) => [
          `  ${index + 1}. ${match.code} - ${match.type}, ${match.confidence} confidence, check ${match.check}`,
          `     Source: ${describeSource(match.source)}`,
          `     Context: ${match.context}`,
        ])),
    '',
    'CODES SEARCHED',
    ...result.kindsSearched.map(
      (kind) => `  - ${kind.type} (${kind.confidence}): ${kind.description}`,
    ),
    '',
    'Codes were found by pattern matching and format checks. They are not diagnoses; confirm',
    'them in the patient record before acting on them.',
    '',
  ];
  return lines.join('\n');
}

const CSV_HEADER = [
  'code',
  'type',
  'confidence',
  'check',
  'source',
  'assessment_id',
  'assessment_code',
  'review_id',
  'condition',
  'context',
];

/** RFC 4180 with formula-looking cells made inert, as every CSV download writes its cells. */
export function extractionCsv(result: ExtractionResult): string {
  const rows = result.matches.map((match) => [
    match.code,
    match.type,
    match.confidence,
    match.check,
    match.source.kind,
    match.source.assessmentId,
    match.source.assessmentCode,
    match.source.reviewId,
    match.source.condition,
    match.context,
  ]);
  return [CSV_HEADER, ...rows].map(csvRow).join('');
}
