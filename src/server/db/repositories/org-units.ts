import { sql, type Insertable, type Selectable } from 'kysely';
import { mainUnitCode } from '../migrations/20261128T1300-org-units.ts';
import type { OrgUnitsTable } from '../schema.ts';
import type { Executor } from './executor.ts';

export type OrgUnitRow = Selectable<OrgUnitsTable>;

/** A user's unit as the user's pages show it. */
export interface UserUnitRow {
  user_id: string;
  id: string;
  code: string;
  name: string;
}

export const orgUnitsRepository = {
  async insert(db: Executor, row: Insertable<OrgUnitsTable>): Promise<void> {
    await db.insertInto('org_units').values(row).execute();
  },

  async findById(db: Executor, id: string): Promise<OrgUnitRow | undefined> {
    return db.selectFrom('org_units').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** The unit with the code, compared without regard to case. */
  async findByCode(db: Executor, code: string): Promise<OrgUnitRow | undefined> {
    return db
      .selectFrom('org_units')
      .selectAll()
      .where('code_key', '=', code.toLowerCase())
      .executeTakeFirst();
  },

  /** The unit every record made before units existed went to, if its code is still MAIN. */
  async findMain(db: Executor): Promise<OrgUnitRow | undefined> {
    return this.findByCode(db, mainUnitCode);
  },

  /**
   * Every unit, by code: the whole tree, from which a scope (`unitsWithin`) or a cycle check is
   * computed. A district's tree is hundreds of rows, read by the primary key's table alone.
   */
  async list(db: Executor): Promise<OrgUnitRow[]> {
    return db.selectFrom('org_units').selectAll().orderBy('code_key').execute();
  },

  /** Every unit's id and parent: the tree a scope is computed from. */
  async links(db: Executor): Promise<{ id: string; parentId: string | null }[]> {
    return db.selectFrom('org_units').select(['id', 'parent_id as parentId']).execute();
  },

  /** `links`, each unit marked `own` when the user works in it. */
  async linksMarkingUser(
    db: Executor,
    userId: string,
  ): Promise<{ id: string; parentId: string | null; own: boolean }[]> {
    const rows = await db
      .selectFrom('org_units')
      .select((eb) => [
        'org_units.id',
        'org_units.parent_id as parentId',
        eb
          .exists(
            eb
              .selectFrom('user_units')
              .select('user_units.org_unit_id')
              .whereRef('user_units.org_unit_id', '=', 'org_units.id')
              .where('user_units.user_id', '=', userId),
          )
          .as('own'),
      ])
      .execute();
    return rows.map((row) => ({ ...row, own: Boolean(row.own) }));
  },

  async count(db: Executor): Promise<number> {
    const row = await db
      .selectFrom('org_units')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** Changes a unit only at the expected version, in one statement; returns whether it did. */
  async updateAtVersion(
    db: Executor,
    id: string,
    expectedVersion: number,
    changes: Partial<Pick<OrgUnitRow, 'code' | 'code_key' | 'name' | 'parent_id' | 'closed_at'>> & {
      updated_at: string;
    },
  ): Promise<boolean> {
    const result = await db
      .updateTable('org_units')
      .set({ ...changes, version: expectedVersion + 1 })
      .where('id', '=', id)
      .where('version', '=', expectedVersion)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  },

  /**
   * In one statement (a save's one read for its unit): the user's unit when they work in one
   * only, else MAIN; undefined when neither exists.
   */
  async ownUnitOrMain(db: Executor, userId: string | null): Promise<OrgUnitRow | undefined> {
    const { rows } = await sql<OrgUnitRow>`select * from org_units where id = coalesce(
        (select min(org_unit_id) from user_units where user_id = ${userId} having count(*) = 1),
        (select id from org_units where code_key = ${mainUnitCode.toLowerCase()}))`.execute(db);
    return rows[0];
  },

  /** The units of the users named, or of every user when `userIds` is undefined. */
  async unitsOfUsers(db: Executor, userIds?: readonly string[]): Promise<UserUnitRow[]> {
    if (userIds?.length === 0) return [];
    let query = db
      .selectFrom('user_units')
      .innerJoin('org_units', 'org_units.id', 'user_units.org_unit_id')
      .select(['user_units.user_id', 'org_units.id', 'org_units.code', 'org_units.name'])
      .orderBy('org_units.code_key');
    if (userIds !== undefined) query = query.where('user_units.user_id', 'in', userIds);
    return query.execute();
  },

  /** Makes a user's units exactly these. */
  async setUserUnits(db: Executor, userId: string, unitIds: readonly string[]): Promise<void> {
    await db.deleteFrom('user_units').where('user_id', '=', userId).execute();
    if (unitIds.length === 0) return;
    await db
      .insertInto('user_units')
      .values(unitIds.map((org_unit_id) => ({ user_id: userId, org_unit_id })))
      .execute();
  },
};
