import { z } from 'zod';
import { assessmentListQuerySchema } from './assessment-list.ts';

/**
 * `?unit=ID`: the caller's scope (issue 36) narrowed to one unit and those below it, as the guard
 * reads it for every route; a unit outside the scope is a 404 as if it did not exist.
 */
export const unitQueryParam = z
  .string()
  .max(100)
  .optional()
  .describe(
    'Narrows the answer to this organisation unit and the units below it, within your scope',
  );

/**
 * A bulk export is narrowed exactly as the history is: its search and whole-day date range; and
 * to the caller's scope, or a unit within it.
 */
export const exportQuerySchema = assessmentListQuerySchema
  .pick({ q: true, from: true, to: true })
  .extend({ unit: unitQueryParam });
export type ExportQuery = z.input<typeof exportQuerySchema>;

export const reportSectionSchema = z.object({
  heading: z.string(),
  lines: z.array(z.string()),
});
export type ReportSection = z.infer<typeof reportSectionSchema>;

/** The comprehensive report of one assessment (spec 9.5), as the text file and print page show it. */
export const assessmentReportSchema = z.object({
  title: z.string(),
  sections: z.array(reportSectionSchema),
  /** What the text download is called: comprehensive-assessment-{code or id}-{date}.txt. */
  fileName: z.string(),
});
export type AssessmentReport = z.infer<typeof assessmentReportSchema>;
