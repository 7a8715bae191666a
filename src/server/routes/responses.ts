import { errorEnvelopeSchema } from '../../shared/api/errors.ts';

/** The OpenAPI responses of a route's failures, all in the one error envelope. */
export function errorResponses<Status extends number>(
  ...statuses: Status[]
): Record<Status, typeof errorEnvelopeSchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorEnvelopeSchema])) as Record<
    Status,
    typeof errorEnvelopeSchema
  >;
}
