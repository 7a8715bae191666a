import { sql, type Insertable, type Selectable, type SqlBool } from 'kysely';
import type { PatientRecordsTable } from '../schema.ts';
import { scopeCondition, withinScope, type Scope } from '../../auth/scope.ts';
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

/**
 * How many index entries a search reads of each of its words, in turn, to tell the rarest: the
 * words still level at one sample size are read again at the next. A surname or a first name
 * is settled by the first (a few thousand records each at 300,000 patients); two words that
 * many records have (the 'mrn' and '1' of 'MRN-1') by the last.
 */
const wordSampleSizes = [5_000, 200_000];

/** A record's words as each of its word rows holds them: each after a space. */
export function recordWordsText(words: Iterable<string>): string {
  return [...words].map((word) => ` ${word}`).join('');
}

/**
 * A search whose words are all of one character (the first key a user types) matches them as
 * whole words (an initial, a one-digit part of a number), not as starts: 'm' starts a word of
 * nearly every record, and finding and ordering them all took most of a second at 300,000
 * records, during which SQLite serves nothing else. With a longer word beside them, one-character
 * words match starts as usual ('MRN-3').
 */
export function matchesWholeWords(words: readonly string[]): boolean {
  return words.length > 0 && words.every((word) => word.length === 1);
}

/**
 * The words of live records that start with `word`, or, for a search of whole words, that are
 * `word`: a range of the words' search index.
 */
function liveWordsStarting(db: Executor, word: string, whole = false) {
  const words = db.selectFrom('patient_record_words');
  return (
    whole
      ? words.where('patient_record_words.word', '=', word)
      : words
          .where('patient_record_words.word', '>=', word)
          .where('patient_record_words.word', '<', afterPrefix(word))
  ).where('patient_record_words.live_number_key', 'is not', null);
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

  /** The record with the id, live or deleted, if it lies within the scope. */
  find(db: Executor, scope: Scope, id: string): Promise<PatientRecordRow | undefined> {
    return db
      .selectFrom('patient_records')
      .selectAll()
      .where('id', '=', id)
      .$call(withinScope('org_unit_id', scope))
      .executeTakeFirst();
  },

  /**
   * The live records with this number (compared without case) within the scope, by id; at most
   * `limit`. Numbers are unique within a unit, so a scope of several units may hold it more than once.
   */
  liveByNumberWithin(
    db: Executor,
    scope: Scope,
    number: string,
    limit?: number,
  ): Promise<PatientRecordRow[]> {
    return db
      .selectFrom('patient_records')
      .selectAll()
      .where('number_key', '=', number.toLowerCase())
      .where('deleted_at', 'is', null)
      .$call(withinScope('org_unit_id', scope))
      .orderBy('id')
      .$if(limit !== undefined, (query) => query.limit(limit ?? 0))
      .execute();
  },

  /** The live record of the unit with this number (compared without case), if any. */
  async findLiveByNumberInUnit(
    db: Executor,
    unitId: string,
    number: string,
  ): Promise<PatientRecordRow | undefined> {
    const unit: Scope = { kind: 'units', unitIds: [unitId] };
    return (await this.liveByNumberWithin(db, unit, number, 1))[0];
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

  /** Writes the search words of a live record (its number's and name's) in place of its old ones. */
  async replaceWords(db: Executor, id: string, number: string, name: string | null) {
    await db.deleteFrom('patient_record_words').where('patient_record_id', '=', id).execute();
    const words = new Set([...searchWords(number), ...searchWords(name ?? '')]);
    if (words.size === 0) return;
    const liveNumberKey = number.toLowerCase();
    const recordWords = recordWordsText(words);
    await db
      .insertInto('patient_record_words')
      .values(
        [...words].map((word) => ({
          word,
          patient_record_id: id,
          live_number_key: liveNumberKey,
          record_words: recordWords,
        })),
      )
      .execute();
  },

  /**
   * Keeps a record's words in step with its deletion: `numberKey` while it is live, null once
   * it is deleted (a search then passes its words by).
   */
  async setWordsLive(db: Executor, id: string, numberKey: string | null): Promise<void> {
    await db
      .updateTable('patient_record_words')
      .set({ live_number_key: numberKey })
      .where('patient_record_id', '=', id)
      .execute();
  },

  /**
   * The words of a search, rarest first: how many live records have a word starting with each,
   * counted up to the sample sizes in turn (`wordSampleSizes`). `search` reads the entries of
   * the first word and looks for the others in each of them, so a word nearly every record has
   * (the 'mrn' of 'MRN-10234') is never read whole.
   */
  async rarestFirst(db: Executor, words: readonly string[]): Promise<string[]> {
    const counted = words.map((word) => ({ word, records: 0 }));
    let level = counted;
    for (const size of wordSampleSizes) {
      if (level.length < 2) break;
      await Promise.all(
        level.map(async (entry) => {
          const sample = liveWordsStarting(db, entry.word, matchesWholeWords(words)).select(
            'patient_record_words.word',
          );
          const row = await db
            .selectFrom(sample.limit(size).as('sample'))
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow();
          entry.records = Number(row.n);
        }),
      );
      level = level.filter((entry) => entry.records === size);
    }
    return counted.sort((a, b) => a.records - b.records).map(({ word }) => word);
  },

  /**
   * The live records each of whose search words starts one of the record's words, by number:
   * a page of `limit` after the cursor, and how many match in all.
   *
   * Found in one range of the words' search index, whatever the number of matches: the records
   * of the first word (give the rarest first, see `rarestFirst`) with their number keys, each
   * other word looked for in the record's words that every entry carries; only the page's
   * records are read. Without words, every live record.
   */
  async search(
    db: Executor,
    scope: Scope,
    words: readonly string[],
    limit: number,
    after?: PatientRecordCursor,
  ): Promise<{ rows: PatientRecordRow[]; total: number }> {
    const [first, ...rest] = words;
    if (first === undefined) return this.everyLive(db, scope, limit, after);
    const whole = matchesWholeWords(words);
    // The words of live records that the first search word starts. When that is one word (a
    // surname typed whole, say), its entries are one a record and already in the order of the
    // records' numbers: the page is the first of them, and counting reads nothing else.
    const bounds = await db
      .selectNoFrom((eb) => [
        eb
          .selectFrom(
            liveWordsStarting(db, first, whole)
              .select('patient_record_words.word')
              .orderBy('patient_record_words.word')
              .limit(1)
              .as('first_word'),
          )
          .select('first_word.word')
          .as('lowest'),
        eb
          .selectFrom(
            liveWordsStarting(db, first, whole)
              .select('patient_record_words.word')
              .orderBy('patient_record_words.word', 'desc')
              .limit(1)
              .as('last_word'),
          )
          .select('last_word.word')
          .as('highest'),
      ])
      .executeTakeFirstOrThrow();
    if (bounds.lowest === null) return { rows: [], total: 0 };
    const oneWord = bounds.lowest === bounds.highest;
    let matches = (
      oneWord
        ? db
            .selectFrom('patient_record_words')
            .where('patient_record_words.word', '=', bounds.lowest)
            .where('patient_record_words.live_number_key', 'is not', null)
        : liveWordsStarting(db, first, whole)
    ).select([
      'patient_record_words.patient_record_id as id',
      'patient_record_words.live_number_key as number_key',
    ]);
    // A record may have two words that start with the same search word.
    if (!oneWord) matches = matches.distinct();
    if (scope.kind !== 'everything') {
      // Each match's record, by its primary key, says whether it lies within the scope.
      matches = matches
        .innerJoin(
          'patient_records',
          'patient_records.id',
          'patient_record_words.patient_record_id',
        )
        .$call(withinScope('patient_records.org_unit_id', scope));
    }
    // Words hold letters and digits only: nothing in them is special to LIKE.
    for (const word of rest) {
      matches = whole
        ? matches.where(
            sql<string>`${sql.ref('patient_record_words.record_words')} || ' '`,
            'like',
            `% ${word} %`,
          )
        : matches.where('patient_record_words.record_words', 'like', `% ${word}%`);
    }
    const matched = db.selectFrom(matches.as('matched'));
    let page: { id: string; number_key: string | null; total?: number }[];
    let total: number;
    if (after === undefined && !oneWord) {
      // The first page and the count in one reading of the matches.
      page = await matched
        .select(['matched.id', 'matched.number_key'])
        .select((eb) => eb.fn.countAll<number>().over().as('total'))
        .orderBy('matched.number_key')
        .orderBy('matched.id')
        .limit(limit)
        .execute();
      total = Number(page[0]?.total ?? 0);
    } else {
      const [rows, count] = await Promise.all([
        (after === undefined
          ? matched
          : matched.where((eb) =>
              eb.or([
                eb('matched.number_key', '>', after.numberKey),
                eb.and([
                  eb('matched.number_key', '=', after.numberKey),
                  eb('matched.id', '>', after.id),
                ]),
              ]),
            )
        )
          .select(['matched.id', 'matched.number_key'])
          .orderBy('matched.number_key')
          .orderBy('matched.id')
          .limit(limit)
          .execute(),
        matched.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      page = rows;
      total = Number(count.n);
    }
    if (page.length === 0) return { rows: [], total };
    const records = await db
      .selectFrom('patient_records')
      .selectAll()
      .where(
        'id',
        'in',
        page.map((match) => match.id),
      )
      .where('deleted_at', 'is', null)
      .execute();
    const byId = new Map(records.map((record) => [record.id, record]));
    return { rows: page.flatMap((match) => byId.get(match.id) ?? []), total };
  },

  /** Every live record, by number: a page after the cursor, and how many there are. */
  async everyLive(
    db: Executor,
    scope: Scope,
    limit: number,
    after?: PatientRecordCursor,
  ): Promise<{ rows: PatientRecordRow[]; total: number }> {
    const query = db
      .selectFrom('patient_records')
      .where('patient_records.deleted_at', 'is', null)
      .$call(withinScope('patient_records.org_unit_id', scope));
    const [rows, count] = await Promise.all([
      (after === undefined
        ? query
        : query.where((eb) =>
            eb.or([
              eb('patient_records.number_key', '>', after.numberKey),
              eb.and([
                eb('patient_records.number_key', '=', after.numberKey),
                eb('patient_records.id', '>', after.id),
              ]),
            ]),
          )
      )
        .selectAll('patient_records')
        .orderBy('patient_records.number_key')
        .orderBy('patient_records.id')
        .limit(limit)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  },

  /** The height measured at the record's latest live assessment within the scope that has one. */
  async lastHeight(db: Executor, scope: Scope, id: string): Promise<number | null> {
    return (await this.lastHeights(db, scope, [id])).get(id) ?? null;
  },

  /** `lastHeight` of each of the records, in one statement (a page of search results). */
  async lastHeights(
    db: Executor,
    scope: Scope,
    ids: readonly string[],
  ): Promise<Map<string, number | null>> {
    if (ids.length === 0) return new Map();
    const rows = await db
      .selectFrom('patient_records')
      .select((eb) => [
        'patient_records.id',
        eb
          .selectFrom('assessments')
          .innerJoin('patients', 'patients.id', 'assessments.patient_id')
          .select('patients.height')
          .whereRef('assessments.patient_record_id', '=', 'patient_records.id')
          .where('assessments.deleted_at', 'is', null)
          .$call(withinScope('assessments.org_unit_id', scope))
          .where('patients.height', 'is not', null)
          .orderBy('assessments.created_at', 'desc')
          .orderBy('assessments.id', 'desc')
          .limit(1)
          .as('height'),
      ])
      .where('patient_records.id', 'in', ids)
      .execute();
    return new Map(rows.map((row) => [row.id, row.height]));
  },

  /** A patient's live assessments within the scope, newest first. */
  async timeline(db: Executor, scope: Scope, id: string): Promise<TimelineRow[]> {
    const rows = await db
      .selectFrom('assessments')
      .innerJoin('patients', 'patients.id', 'assessments.patient_id')
      .select([
        'assessments.id',
        'assessments.assessment_code',
        'assessments.created_at',
        'assessments.total_score',
        'assessments.signed_off',
        'patients.bmi',
        // Kept from the review rows by the worklists' triggers (migration 20261125T0300).
        'assessments.review_locked',
      ])
      .where('assessments.patient_record_id', '=', id)
      .where('assessments.deleted_at', 'is', null)
      .$call(withinScope('assessments.org_unit_id', scope))
      .orderBy('assessments.created_at', 'desc')
      .orderBy('assessments.id', 'desc')
      .execute();
    if (rows.length === 0) return [];

    const results = await db
      .selectFrom('results')
      .select(['assessment_id', 'condition', 'risk_status', 'total_score', 'rule_set_version'])
      .where((eb) =>
        rows.length === 1
          ? eb('assessment_id', '=', rows[0]?.id ?? '')
          : eb(
              'assessment_id',
              'in',
              rows.map((row) => row.id),
            ),
      )
      .execute();
    const resultsOf = Map.groupBy(results, (result) => result.assessment_id);
    return rows.map((row) => {
      const own = resultsOf.get(row.id) ?? [];
      return {
        ...row,
        signed_off: bool(row.signed_off),
        review_locked: bool(row.review_locked),
        rule_set_version: own[0]?.rule_set_version ?? '',
        results: own.map(({ condition, risk_status, total_score }) => ({
          condition,
          risk_status,
          total_score,
        })),
      };
    });
  },

  /**
   * The patient's live assessment made just before the given one (what it is compared with), in
   * one statement: every save naming a patient answers with it. One row-value comparison walks
   * the patient's index from that point (the same test written with 'or' cost a save naming a
   * patient twice the CPU on SQLite); built through the query builder as two queries, this read
   * cost about four times the CPU.
   */
  async assessmentBefore(
    db: Executor,
    scope: Scope,
    id: string,
    before: { createdAt: string; id: string },
  ): Promise<TimelineRow | undefined> {
    const { rows } = await sql<{
      id: string;
      assessment_code: string | null;
      created_at: string;
      total_score: number;
      signed_off: SqlBool;
      bmi: number;
      review_locked: SqlBool;
      condition: string | null;
      risk_status: string | null;
      result_score: number | null;
      rule_set_version: string | null;
    }>`
      select a.id, a.assessment_code, a.created_at, a.total_score, a.signed_off, p.bmi,
        a.review_locked, r.condition, r.risk_status, r.total_score as result_score,
        r.rule_set_version
      from (
        select id, assessment_code, created_at, total_score, signed_off, review_locked, patient_id
        from assessments
        where patient_record_id = ${id} and deleted_at is null
          and (created_at, id) < (${before.createdAt}, ${before.id})
          and ${scopeCondition('org_unit_id', scope)}
        order by created_at desc, id desc
        limit 1
      ) a
      join patients p on p.id = a.patient_id
      left join results r on r.assessment_id = a.id`.execute(db);
    const first = rows[0];
    if (first === undefined) return undefined;
    return {
      id: first.id,
      assessment_code: first.assessment_code,
      created_at: first.created_at,
      total_score: first.total_score,
      signed_off: bool(first.signed_off),
      bmi: first.bmi,
      review_locked: bool(first.review_locked),
      rule_set_version: first.rule_set_version ?? '',
      results: rows.flatMap(({ condition, risk_status, result_score }) =>
        condition === null || risk_status === null || result_score === null
          ? []
          : [{ condition, risk_status, total_score: result_score }],
      ),
    };
  },
};
