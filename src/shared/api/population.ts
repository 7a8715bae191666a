import { z } from 'zod';
import { CONDITIONS } from '../../engine/index.ts';
import { assessmentListQuerySchema } from './assessment-list.ts';
import { unitQuerySchema } from './org-units.ts';

/** The population panel counts the assessments the history shows: same search, same dates. */
export const populationQuerySchema = assessmentListQuerySchema
  .pick({ q: true, from: true, to: true })
  .extend({ unit: unitQuerySchema });
export type PopulationQuery = z.input<typeof populationQuerySchema>;

const count = z.number().int().min(0);

/** How many matching assessments have each risk status for one condition. */
export const statusCountsSchema = z.object({
  TRUE: count,
  MAYBE: count,
  FALSE: count,
  DIAGNOSED: count,
  UNKNOWN: count,
});
export type StatusCounts = z.infer<typeof statusCountsSchema>;

export const populationSchema = z.object({
  /** Every condition, in the product's order, zeros included. */
  conditions: z.array(z.object({ condition: z.enum(CONDITIONS), counts: statusCountsSchema })),
});
export type Population = z.infer<typeof populationSchema>;
