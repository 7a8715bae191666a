import { z } from 'zod';

export const clientErrorMessageMaxLength = 500;
export const clientErrorContextMaxLength = 200;

/** What the error screen reports to the server log; the browser keeps its own copy too. */
export const clientErrorReportSchema = z.object({
  /** Made from the time of the error, such as ERR-MI4Z1K2P; the screen shows it to the user. */
  errorId: z.string().regex(/^ERR-[0-9A-Z]{1,20}$/, 'Invalid error ID: expected ERR-{time}'),
  message: z.string().max(clientErrorMessageMaxLength),
  /** Where it happened, such as the view's path. */
  context: z.string().max(clientErrorContextMaxLength),
  /** Whether the user got the app working again with Try Again. */
  recovered: z.boolean(),
});
export type ClientErrorReport = z.infer<typeof clientErrorReportSchema>;
