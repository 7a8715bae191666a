import type { Insertable, Selectable } from 'kysely';
import type { OidcSignInsTable } from '../schema.ts';
import type { Executor } from './executor.ts';

export const oidcSignInsRepository = {
  /** Keeps a sign-in sent to the provider, and drops those begun before `staleBefore`. */
  async insert(
    db: Executor,
    row: Insertable<OidcSignInsTable>,
    staleBefore: string,
  ): Promise<void> {
    await db.deleteFrom('oidc_sign_ins').where('created_at', '<', staleBefore).execute();
    await db.insertInto('oidc_sign_ins').values(row).execute();
  },

  /**
   * Takes the sign-in of a browser's cookie: read and deleted in one statement, so that of two
   * returns with the same cookie, even at once, one gets it.
   */
  async take(db: Executor, bindingHash: string): Promise<Selectable<OidcSignInsTable> | undefined> {
    return db
      .deleteFrom('oidc_sign_ins')
      .where('binding_hash', '=', bindingHash)
      .returningAll()
      .executeTakeFirst();
  },
};
