import { z } from 'zod';
import { CONDITIONS } from '../../engine/index.ts';
import { calendarDateSchema } from './calendar-date.ts';

/** 1 to 32 letters, digits, '-' or '_'; unique without regard to case. */
export const orgUnitCodeSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,32}$/, "Codes are 1 to 32 letters, digits, '-' or '_'");

export const orgUnitNameSchema = z
  .string()
  .trim()
  .min(1, 'A unit needs a name')
  .max(200, 'Names are at most 200 characters');

export const orgUnitSchema = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  /** Null at the top of the tree. */
  parentId: z.string().nullable(),
  /** The ETag of the unit; a change names it in If-Match. */
  version: z.number().int(),
  /** When it was closed: a closed unit takes no new patients or assessments. */
  closedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type OrgUnit = z.infer<typeof orgUnitSchema>;

/**
 * The tree as a list: each unit after its parent (depth first, by code among siblings), with its
 * depth (0 at the top), so that a client draws it without building it.
 */
export const orgUnitTreeSchema = z.object({
  items: z.array(orgUnitSchema.extend({ depth: z.number().int() })),
});
export type OrgUnitTree = z.infer<typeof orgUnitTreeSchema>;

export const createOrgUnitBodySchema = z.strictObject({
  code: orgUnitCodeSchema,
  name: orgUnitNameSchema,
  parentId: z.string().max(100).nullable(),
});
export type CreateOrgUnitBody = z.infer<typeof createOrgUnitBodySchema>;

/** What PUT changes: the whole of code, name and parent (closing is its own operation). */
export const updateOrgUnitBodySchema = createOrgUnitBodySchema;
export type UpdateOrgUnitBody = z.infer<typeof updateOrgUnitBodySchema>;

export const orgUnitParamsSchema = z.object({ id: z.string().max(100) });

/** A unit as a user's page names it. */
export const orgUnitReferenceSchema = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
});
export type OrgUnitReference = z.infer<typeof orgUnitReferenceSchema>;

/**
 * `?unit=ID` on a read of clinical figures: the server narrows the caller's scope to that unit and
 * those below it (a unit outside the scope is answered 404, as if it did not exist).
 */
export const unitQuerySchema = z
  .string()
  .max(100)
  .optional()
  .describe(
    'Narrows the answer to this organisation unit and the units below it, within your scope',
  );

/** A district's roll-up: whole days on the clinic's calendar, as the dashboard's, either end open. */
export const orgUnitSummaryQuerySchema = z.object({
  from: calendarDateSchema.optional(),
  to: calendarDateSchema.optional(),
});
export type OrgUnitSummaryQuery = z.input<typeof orgUnitSummaryQuerySchema>;

const count = z.number().int().min(0);

/** One row of a roll-up: a unit and everything below it. */
export const orgUnitSummaryRowSchema = z.object({
  unit: orgUnitReferenceSchema.extend({
    /** Whether units lie below it: its own roll-up then has a row for each. */
    hasChildren: z.boolean(),
    closed: z.boolean(),
  }),
  /**
   * True on the row of the unit's own records alone, without the units below it: a unit with
   * units below it that also holds records has that row last, so that the rows add up.
   */
  ownRecordsOnly: z.boolean(),
  /** Live assessments made within the dates. */
  assessments: count,
  /** Per condition, in the order of CONDITIONS: those assessments at High and at Moderate. */
  conditions: z.array(z.object({ condition: z.enum(CONDITIONS), high: count, moderate: count })),
  /** Now, whatever the dates: signed-off live assessments whose review is not finalized. */
  awaitingReview: count,
  /** Now, whatever the dates: patients of these units past their follow-up's due date. */
  followUpOverdue: count,
  /**
   * Of the decided conditions of finalized reviews of those assessments, the share the doctor
   * agreed with; null when there are none.
   */
  agreementShare: z.number().min(0).max(1).nullable(),
});
export type OrgUnitSummaryRow = z.infer<typeof orgUnitSummaryRowSchema>;

export const orgUnitSummarySchema = z.object({
  /**
   * The unit rolled up; null at the top of a scope of several branches (a caller who works in
   * units of two districts), whose rows are those units.
   */
  unit: orgUnitReferenceSchema
    .extend({
      /** The unit above it, null at the top of what the caller may see. */
      parentId: z.string().nullable(),
    })
    .nullable(),
  /**
   * One row per unit directly below it, by code (and the unit's own records, when it holds any);
   * a unit with none below it has one row, for itself.
   */
  rows: z.array(orgUnitSummaryRowSchema),
});
export type OrgUnitSummary = z.infer<typeof orgUnitSummarySchema>;
