import type { Configuration } from 'openid-client';
import type { Config } from './config.ts';
import type { ScryptCost } from './auth/passwords.ts';
import type { DatabaseHandle } from './db/database.ts';

/** What every route and service may depend on; built once per app. */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  /** The clock, injectable so that expiry and time-of-day rules can be tested. */
  now: () => Date;
  /** scrypt cost for new password hashes; OWASP's settings unless a test lowers them. */
  passwordCost: ScryptCost;
  /** The randomness of generated assessment codes, [0, 1); a test may replay a sequence. */
  randomFraction?: () => number;
  /** Rows a bulk export's page reads, when a test makes its pages small to stop a run between them. */
  bulkExportPageSize?: number;
  /** The OpenID Connect provider, discovered at start when OIDC_ISSUER is set. */
  oidcProvider?: Configuration | undefined;
}
