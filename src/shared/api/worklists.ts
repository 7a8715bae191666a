import { z } from 'zod';
import { CONDITIONS } from '../../engine/index.ts';

export const worklistQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(300).optional(),
});
export type WorklistQuery = z.input<typeof worklistQuerySchema>;

/** A condition that puts an assessment on a worklist: at High (TRUE) or Moderate (MAYBE). */
export const worklistConditionSchema = z.object({
  condition: z.enum(CONDITIONS),
  riskStatus: z.enum(['TRUE', 'MAYBE']),
});
export type WorklistCondition = z.infer<typeof worklistConditionSchema>;

/** A signed-off assessment whose doctor review is not finalized. */
export const reviewWorklistItemSchema = z.object({
  assessmentId: z.string(),
  code: z.string().nullable(),
  /** The patient record the assessment names, if any. */
  patientId: z.string().nullable(),
  patientNumber: z.string().nullable(),
  /** The patient record's name, when it has one. */
  patientName: z.string().nullable(),
  signedOffAt: z.string(),
  signedOffBy: z.string().nullable(),
  /** High first, then Moderate, each in the engine's order of conditions. */
  conditions: z.array(worklistConditionSchema),
  /** Why it is listed where it is, such as 'High: DM2, TB'. */
  reason: z.string(),
});
export type ReviewWorklistItem = z.infer<typeof reviewWorklistItemSchema>;

export const reviewWorklistSchema = z.object({
  items: z.array(reviewWorklistItemSchema),
  /** Every assessment awaiting review. */
  total: z.number().int(),
  nextCursor: z.string().nullable(),
});
export type ReviewWorklist = z.infer<typeof reviewWorklistSchema>;

/** A patient whose latest assessment has a condition at High or Moderate. */
export const followUpItemSchema = z.object({
  patient: z.object({ id: z.string(), number: z.string(), name: z.string().nullable() }),
  assessment: z.object({ id: z.string(), code: z.string().nullable(), createdAt: z.string() }),
  level: z.enum(['High', 'Moderate']),
  conditions: z.array(worklistConditionSchema),
  /** YYYY-MM-DD on the clinic's calendar: the assessment's date plus the level's interval. */
  dueDate: z.string(),
  /** Days past the due date; negative while it is still to come, 0 on the day. */
  daysOverdue: z.number().int(),
  /** Such as 'High: Hypertension'. */
  reason: z.string(),
});
export type FollowUpItem = z.infer<typeof followUpItemSchema>;

export const followUpListSchema = z.object({
  items: z.array(followUpItemSchema),
  total: z.number().int(),
  nextCursor: z.string().nullable(),
});
export type FollowUpList = z.infer<typeof followUpListSchema>;

/** Why a list names an assessment: its conditions at High, then at Moderate. */
export function worklistReason(conditions: readonly WorklistCondition[]): string {
  const named = (status: 'TRUE' | 'MAYBE') =>
    conditions.filter((c) => c.riskStatus === status).map((c) => c.condition);
  const parts: string[] = [];
  const high = named('TRUE');
  const moderate = named('MAYBE');
  if (high.length > 0) parts.push(`High: ${high.join(', ')}`);
  if (moderate.length > 0) parts.push(`Moderate: ${moderate.join(', ')}`);
  return parts.length === 0 ? 'No condition at High or Moderate' : parts.join('; ');
}
