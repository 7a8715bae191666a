import { z } from 'zod';
import { GENDERS } from '../../engine/index.ts';
import { calendarDateSchema } from './calendar-date.ts';

/**
 * The history's schemas, apart from the whole assessment's (assessments.ts, which re-exports
 * these): the dashboard's first view builds only what it parses.
 */

/** A history row: what the list shows without loading the whole record. */
export const assessmentSummarySchema = z.object({
  id: z.string(),
  code: z.string().nullable(),
  version: z.number().int(),
  age: z.number().nullable(),
  gender: z.enum(GENDERS).nullable(),
  bmi: z.number(),
  assessmentComplete: z.boolean(),
  totalScore: z.number(),
  signedOff: z.boolean(),
  signedOffAt: z.string().nullable(),
  signedOffBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The patient record the assessment belongs to, if any: its id and patient number. */
  patientId: z.string().nullable(),
  patientNumber: z.string().nullable(),
});
export type AssessmentSummary = z.infer<typeof assessmentSummarySchema>;

export const assessmentListQuerySchema = z.object({
  q: z.string().trim().max(200).optional(),
  /** Whole days (YYYY-MM-DD) in the clinic's time zone, both inclusive. */
  from: calendarDateSchema.optional(),
  to: calendarDateSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(20),
  cursor: z.string().max(300).optional(),
});
export type AssessmentListQuery = z.input<typeof assessmentListQuerySchema>;

export const assessmentListSchema = z.object({
  items: z.array(assessmentSummarySchema),
  /** How many assessments match the search and date filter. */
  total: z.number().int(),
  /** How many live assessments there are in all ('Found X of Y'). */
  overallTotal: z.number().int(),
  nextCursor: z.string().nullable(),
});
export type AssessmentList = z.infer<typeof assessmentListSchema>;
