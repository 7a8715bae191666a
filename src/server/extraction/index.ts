/** Nurse-notes code extractor: pure functions, fed note by note by the server's service. */
export { extractCodes } from './extract.ts';
export { createExtractionRun, type ExtractionRun } from './run.ts';
export { extractionCsv, extractionReportText } from './report.ts';
export { measureExtractionThroughput, type ThroughputMeasurement } from './benchmark.ts';
export {
  CODE_TYPES,
  CONDITIONS,
  type CheckOutcome,
  type CodeMatch,
  type CodeType,
  type Condition,
  type Confidence,
  type ExtractedMatch,
  type ExtractionResult,
  type ExtractionTotals,
  type Inconsistency,
  type KindSearched,
  type MatchSource,
  type NoteInput,
  type NoteKind,
} from './types.ts';
