import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';

/** What every route and service may depend on; built once per app. */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  /** The clock, injectable so that expiry and time-of-day rules can be tested. */
  now: () => Date;
}
