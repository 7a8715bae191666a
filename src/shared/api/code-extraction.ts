import { z } from 'zod';
import { CONDITIONS } from '../../engine/index.ts';

/** The kinds of code the extractor looks for (spec 9.4), in the order results list them. */
export const CODE_TYPES = [
  'Assessment Code',
  'ICD-10',
  'ICD-9',
  'NDC',
  'Medication Code',
  'CPT',
  'LOINC',
  'SNOMED CT',
  'Patient ID',
  'Lab Code',
  'Custom Code',
] as const;

export const extractionFailedMessage =
  'Failed to extract codes from notes. Please check console for details.';

const confidenceSchema = z.enum(['high', 'medium', 'low']);
const codeTypeSchema = z.enum(CODE_TYPES);

export const extractionResultSchema = z.object({
  totals: z.object({
    totalNotes: z.number().int(),
    notesWithCodes: z.number().int(),
    uniqueCodes: z.number().int(),
    totalMatches: z.number().int(),
  }),
  countsByType: z.record(codeTypeSchema, z.number().int()),
  matches: z.array(
    z.object({
      code: z.string(),
      type: codeTypeSchema,
      context: z.string(),
      source: z.object({
        kind: z.enum(['assessment_note', 'doctor_comment']),
        assessmentId: z.string(),
        assessmentCode: z.string().nullable(),
        reviewId: z.string().optional(),
        condition: z.string().optional(),
      }),
      confidence: confidenceSchema,
      check: z.string(),
    }),
  ),
  inconsistencies: z.array(
    z.object({
      assessmentId: z.string(),
      assessmentCode: z.string().nullable(),
      condition: z.enum(CONDITIONS),
      code: z.string(),
      context: z.string(),
    }),
  ),
  kindsSearched: z.array(
    z.object({ type: codeTypeSchema, confidence: confidenceSchema, description: z.string() }),
  ),
  notes: z.array(z.string()),
});
export type ExtractionResult = z.infer<typeof extractionResultSchema>;

/** With `Accept: application/x-ndjson` the scan streams progress lines, then the result. */
export const extractionProgressSchema = z.object({
  type: z.literal('progress'),
  scanned: z.number().int(),
  total: z.number().int(),
});
