import type { SessionUser } from '../../shared/api/session.ts';
import type { Scope } from './scope.ts';

/**
 * Who makes a request, as the services and the audit trail need it: the signed-in user, the
 * address they came from and the units whose records they may reach. The guard builds it
 * (`requesterOf`); every clinical service takes it.
 */
export interface Requester {
  user: SessionUser;
  address: string;
  scope: Scope;
}
