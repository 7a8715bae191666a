import type { Selectable } from 'kysely';
import type { SecondFactorChallengePurpose, UserSecondFactorsTable } from '../schema.ts';
import type { Executor } from './executor.ts';

export type SecondFactorRow = Selectable<UserSecondFactorsTable>;

export const secondFactorsRepository = {
  find(db: Executor, userId: string): Promise<SecondFactorRow | undefined> {
    return db
      .selectFrom('user_second_factors')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
  },

  /** A new, unconfirmed secret for the user, in place of any unconfirmed one before it. */
  async startEnrolment(db: Executor, userId: string, secret: string, at: string): Promise<void> {
    await db
      .insertInto('user_second_factors')
      .values({ user_id: userId, secret, created_at: at, confirmed_at: null, last_time_step: null })
      .onConflict((conflict) =>
        conflict
          .column('user_id')
          .doUpdateSet({ secret, created_at: at, last_time_step: null })
          .where('user_second_factors.confirmed_at', 'is', null),
      )
      .execute();
  },

  async confirm(db: Executor, userId: string, at: string, timeStep: number): Promise<boolean> {
    const result = await db
      .updateTable('user_second_factors')
      .set({ confirmed_at: at, last_time_step: timeStep })
      .where('user_id', '=', userId)
      .where('confirmed_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  },

  /**
   * Records the time step of an accepted code, in one statement that refuses a step at or before
   * the last: of two requests with the same code, one is accepted.
   */
  async acceptTimeStep(db: Executor, userId: string, timeStep: number): Promise<boolean> {
    const result = await db
      .updateTable('user_second_factors')
      .set({ last_time_step: timeStep })
      .where('user_id', '=', userId)
      .where('confirmed_at', 'is not', null)
      .where((eb) => eb.or([eb('last_time_step', 'is', null), eb('last_time_step', '<', timeStep)]))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  },

  async remove(db: Executor, userId: string): Promise<boolean> {
    await db.deleteFrom('second_factor_recovery_codes').where('user_id', '=', userId).execute();
    await db.deleteFrom('second_factor_challenges').where('user_id', '=', userId).execute();
    const result = await db
      .deleteFrom('user_second_factors')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  },

  async replaceRecoveryCodes(db: Executor, userId: string, codeHashes: string[]): Promise<void> {
    await db.deleteFrom('second_factor_recovery_codes').where('user_id', '=', userId).execute();
    await db
      .insertInto('second_factor_recovery_codes')
      .values(codeHashes.map((code_hash) => ({ code_hash, user_id: userId, used_at: null })))
      .execute();
  },

  /** Marks an unused recovery code of the user used, in one statement; false when there is none. */
  async useRecoveryCode(
    db: Executor,
    userId: string,
    codeHash: string,
    at: string,
  ): Promise<boolean> {
    const result = await db
      .updateTable('second_factor_recovery_codes')
      .set({ used_at: at })
      .where('code_hash', '=', codeHash)
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  },

  async unusedRecoveryCodes(db: Executor, userId: string): Promise<number> {
    const row = await db
      .selectFrom('second_factor_recovery_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  async insertChallenge(
    db: Executor,
    challenge: {
      id_hash: string;
      user_id: string;
      created_at: string;
      purpose: SecondFactorChallengePurpose;
      id_token?: string;
    },
  ): Promise<void> {
    await db.insertInto('second_factor_challenges').values(challenge).execute();
  },

  /** The ID token of a provider's sign-in that awaits this step; null after a password. */
  async challengeIdToken(db: Executor, idHash: string): Promise<string | null> {
    const row = await db
      .selectFrom('second_factor_challenges')
      .select('id_token')
      .where('id_hash', '=', idHash)
      .executeTakeFirst();
    return row?.id_token ?? null;
  },

  findChallenge(
    db: Executor,
    idHash: string,
  ): Promise<
    { user_id: string; created_at: string; purpose: SecondFactorChallengePurpose } | undefined
  > {
    return db
      .selectFrom('second_factor_challenges')
      .select(['user_id', 'created_at', 'purpose'])
      .where('id_hash', '=', idHash)
      .executeTakeFirst();
  },

  /** Ends a challenge; true when this call ended it (a challenge is answered once). */
  async endChallenge(db: Executor, idHash: string): Promise<boolean> {
    const result = await db
      .deleteFrom('second_factor_challenges')
      .where('id_hash', '=', idHash)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  },

  /** Challenges begun before the time are of no use; they are removed as new ones are made. */
  async removeChallengesBefore(db: Executor, at: string): Promise<void> {
    await db.deleteFrom('second_factor_challenges').where('created_at', '<', at).execute();
  },
};
