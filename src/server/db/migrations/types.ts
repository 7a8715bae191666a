import type { ColumnDataType, Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';

/** A migration written once for both engines; `engine` picks a column type where they differ. */
export interface TriageMigration {
  name: string;
  up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void>;
  down(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void>;
}

export function columnTypes(engine: DatabaseEngine): {
  timestamp: ColumnDataType;
  bool: ColumnDataType;
  real: ColumnDataType;
} {
  return engine === 'postgres'
    ? { timestamp: 'timestamptz', bool: 'boolean', real: 'double precision' }
    : { timestamp: 'text', bool: 'integer', real: 'real' };
}
