import type { Insertable, Selectable } from 'kysely';
import type { PatientRecordsTable } from '../schema.ts';
import { bool, type Executor } from './executor.ts';

export type PatientRecordRow = Selectable<PatientRecordsTable>;

/** One assessment of a patient's timeline, with its per-condition statuses. */
export interface TimelineRow {
  id: string;
  assessment_code: string | null;
  created_at: string;
  total_score: number;
  signed_off: boolean;
  bmi: number;
  review_locked: boolean;
  rule_set_version: string;
  results: Array<{ condition: string; risk_status: string; total_score: number }>;
}

/** The words of a patient record a search matches by their start: lower-cased letters and digits. */
export function searchWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** The first text after every text that starts with `prefix`, for a range search on an index. */
function afterPrefix(prefix: string): string {
  return `${prefix}\u{10FFFF}`;
}

export interface PatientRecordCursor {
  numberKey: string;
  id: string;
}

export const patientRecordsRepository = {
  async insert(db: Executor, row: Insertable<PatientRecordsTable>): Promise<void> {
    await db.insertInto('patient_records').values(row).execute();
    await this.replaceWords(db, row.id, row.number, row.name ?? null);
  },

  find(db: Executor, id: string): Promise<PatientRecordRow | undefined> {
    return db.selectFrom('patient_records').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** The live record with this number (compared without case), if any. */
  findLiveByNumber(db: Executor, number: string): Promise<PatientRecordRow | undefined> {
    return db
      .selectFrom('patient_records')
      .selectAll()
      .where('number_key', '=', number.toLowerCase())
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  },

  /**
   * Changes a record only at the expected version, in one statement; returns whether it did.
   */
  async updateAtVersion(
    db: Executor,
    id: string,
    expectedVersion: number,
    changes: Partial<Omit<Insertable<PatientRecordsTable>, 'id' | 'version'>>,
  ): Promise<boolean> {
    const result = await db
      .updateTable('patient_records')
      .set({ ...changes, version: expectedVersion + 1 })
      .where('id', '=', id)
      .where('version', '=', expectedVersion)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async replaceWords(db: Executor, id: string, number: string, name: string | null) {
    await db.deleteFrom('patient_record_words').where('patient_record_id', '=', id).execute();
    const words = new Set([...searchWords(number), ...searchWords(name ?? '')]);
    if (words.size === 0) return;
    await db
      .insertInto('patient_record_words')
      .values([...words].map((word) => ({ word, patient_record_id: id })))
      .execute();
  },

  /** Live records each of whose search words starts one of the record's words. */
  matching(db: Executor, words: string[]) {
    let query = db.selectFrom('patient_records').where('patient_records.deleted_at', 'is', null);
    for (const word of words) {
      query = query.where(
        'patient_records.id',
        'in',
        db
          .selectFrom('patient_record_words')
          .select('patient_record_words.patient_record_id')
          .where('patient_record_words.word', '>=', word)
          .where('patient_record_words.word', '<', afterPrefix(word)),
      );
    }
    return query;
  },

  list(
    db: Executor,
    words: string[],
    limit: number,
    after?: PatientRecordCursor,
  ): Promise<PatientRecordRow[]> {
    let query = this.matching(db, words);
    if (after !== undefined) {
      query = query.where((eb) =>
        eb.or([
          eb('patient_records.number_key', '>', after.numberKey),
          eb.and([
            eb('patient_records.number_key', '=', after.numberKey),
            eb('patient_records.id', '>', after.id),
          ]),
        ]),
      );
    }
    return query
      .selectAll('patient_records')
      .orderBy('patient_records.number_key')
      .orderBy('patient_records.id')
      .limit(limit)
      .execute();
  },

  async count(db: Executor, words: string[]): Promise<number> {
    const row = await this.matching(db, words)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },

  /** The height measured at the record's latest live assessment that has one. */
  async lastHeight(db: Executor, id: string): Promise<number | null> {
    const row = await db
      .selectFrom('assessments')
      .innerJoin('patients', 'patients.id', 'assessments.patient_id')
      .select('patients.height')
      .where('assessments.patient_record_id', '=', id)
      .where('assessments.deleted_at', 'is', null)
      .where('patients.height', 'is not', null)
      .orderBy('assessments.created_at', 'desc')
      .orderBy('assessments.id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.height ?? null;
  },

  /**
   * A patient's live assessments, newest first; with `before`, only those made before that one
   * (the assessment it is compared with is the first).
   */
  async timeline(
    db: Executor,
    id: string,
    options: { before?: { createdAt: string; id: string }; limit?: number } = {},
  ): Promise<TimelineRow[]> {
    let query = db
      .selectFrom('assessments')
      .innerJoin('patients', 'patients.id', 'assessments.patient_id')
      .select([
        'assessments.id',
        'assessments.assessment_code',
        'assessments.created_at',
        'assessments.total_score',
        'assessments.signed_off',
        'patients.bmi',
      ])
      .where('assessments.patient_record_id', '=', id)
      .where('assessments.deleted_at', 'is', null);
    const before = options.before;
    if (before !== undefined) {
      query = query.where((eb) =>
        eb.or([
          eb('assessments.created_at', '<', before.createdAt),
          eb.and([
            eb('assessments.created_at', '=', before.createdAt),
            eb('assessments.id', '<', before.id),
          ]),
        ]),
      );
    }
    query = query.orderBy('assessments.created_at', 'desc').orderBy('assessments.id', 'desc');
    if (options.limit !== undefined) query = query.limit(options.limit);
    const rows = await query.execute();
    if (rows.length === 0) return [];

    const ids = rows.map((row) => row.id);
    const [results, locked] = await Promise.all([
      db
        .selectFrom('results')
        .select(['assessment_id', 'condition', 'risk_status', 'total_score', 'rule_set_version'])
        .where('assessment_id', 'in', ids)
        .execute(),
      db
        .selectFrom('doctor_reviews')
        .select('assessment_id')
        .distinct()
        .where('assessment_id', 'in', ids)
        .where('locked', '=', true)
        .execute(),
    ]);
    const lockedIds = new Set(locked.map((row) => row.assessment_id));
    const resultsOf = Map.groupBy(results, (result) => result.assessment_id);
    return rows.map((row) => {
      const own = resultsOf.get(row.id) ?? [];
      return {
        ...row,
        signed_off: bool(row.signed_off),
        review_locked: lockedIds.has(row.id),
        rule_set_version: own[0]?.rule_set_version ?? '',
        results: own.map(({ condition, risk_status, total_score }) => ({
          condition,
          risk_status,
          total_score,
        })),
      };
    });
  },
};
