import { z } from 'zod';
import { assessmentListQuerySchema } from './assessment-list.ts';

/** A bulk export is narrowed exactly as the history is: its search and whole-day date range. */
export const exportQuerySchema = assessmentListQuerySchema.pick({ q: true, from: true, to: true });
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
