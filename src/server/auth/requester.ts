import type { SessionUser } from '../../shared/api/session.ts';

/**
 * Who makes a request, as the services and the audit trail need it: the signed-in user and the
 * address they came from. The guard builds it (`requesterOf`); every clinical service takes it.
 */
export interface Requester {
  user: SessionUser;
  address: string;
}
