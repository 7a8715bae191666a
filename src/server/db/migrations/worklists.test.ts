import { describe, expect, it } from 'vitest';
import type { Insertable } from 'kysely';
import { CONDITIONS } from '../../../engine/index.ts';
import type { FollowUpList, ReviewWorklist } from '../../../shared/api/worklists.ts';
import { openTestApp } from '../../testing/app.ts';
import { testDatabases } from '../../testing/databases.ts';
import { undoThrough } from '../../testing/migrations.ts';
import { signedInAs } from '../../testing/users.ts';
import { migrateToLatest } from '../migrate.ts';
import type { AssessmentsTable, ResultsTable } from '../schema.ts';
import { worklists } from './20261125T0300-worklists.ts';

const day = (n: number) => new Date(Date.parse('2026-08-01T08:00:00.000Z') + n * 86_400_000);

describe.each(testDatabases())('the worklists migration on $engine', ({ engine, open }) => {
  it('fills both worklists from the stored records, and the triggers follow from there', async () => {
    const handle = await open();
    await undoThrough(handle, worklists.name);
    const db = handle.db;

    await db
      .insertInto('patient_records')
      .values(
        ['one', 'two', 'gone'].map((name, i) => ({
          id: `pr-${name}`,
          number: `MIG-${i}`,
          number_key: `mig-${i}`,
          name: `Patient ${name}`,
          version: 1,
          created_at: day(0).toISOString(),
          updated_at: day(0).toISOString(),
          deleted_at: name === 'gone' ? day(1).toISOString() : null,
        })),
      )
      .execute();
    /** An assessment as the versions before stored it, with its results. */
    const store = async (
      id: string,
      at: Date,
      statuses: Partial<Record<(typeof CONDITIONS)[number], ResultsTable['risk_status']>>,
      extra: Partial<Insertable<AssessmentsTable>> = {},
    ) => {
      const iso = at.toISOString();
      await db
        .insertInto('patients')
        .values({ id: `p-${id}`, age: 50, gender: 'Male', bmi: 24, updated_at: iso })
        .execute();
      await db
        .insertInto('assessments')
        .values({
          id,
          patient_id: `p-${id}`,
          assessment_code: `ASS-${id.toUpperCase()}`,
          assessment_complete: true,
          total_score: 0,
          notes: null,
          created_at: iso,
          updated_at: iso,
          signed_off: false,
          version: 1,
          search_text: id,
          patient_gender: 'Male',
          patient_age: 50,
          created_local_date: iso.slice(0, 10),
          ...extra,
        })
        .execute();
      await db
        .insertInto('results')
        .values(
          CONDITIONS.map((condition) => ({
            assessment_id: id,
            condition,
            total_score: 0,
            factor_count: 0,
            risk_status: statuses[condition] ?? 'FALSE',
            symptom_score: 0,
            risk_factor_score: 0,
            management_score: 0,
            comorbidity_score: 0,
            threshold: 1,
            rule_set_version: '2.0',
          })),
        )
        .execute();
    };
    const signed = (at: Date) => ({
      signed_off: true,
      signed_off_at: at.toISOString(),
      signed_off_by: 'Sam Signer',
      version: 2,
    });
    // Patient one: High, then a later Moderate that was deleted: the High one counts.
    await store(
      'a-one-high',
      day(0),
      { TB: 'TRUE' },
      { ...signed(day(2)), patient_record_id: 'pr-one' },
    );
    await store(
      'a-one-later',
      day(5),
      { Asthma: 'MAYBE' },
      {
        patient_record_id: 'pr-one',
        deleted_at: day(6).toISOString(),
      },
    );
    // Patient two: Moderate then Low (assessed again): not to follow.
    await store(
      'a-two-mod',
      day(1),
      { HIV: 'MAYBE' },
      { ...signed(day(1)), patient_record_id: 'pr-two' },
    );
    await store('a-two-low', day(3), { DM2: 'DIAGNOSED' }, { patient_record_id: 'pr-two' });
    // A deleted patient record's High assessment.
    await store('a-gone', day(1), { DM2: 'TRUE' }, { patient_record_id: 'pr-gone' });
    // Signed off with a locked review: not awaiting review.
    await store('a-locked', day(0), { DM2: 'TRUE' }, signed(day(0)));
    await db
      .insertInto('doctor_reviews')
      .values(
        CONDITIONS.map((condition, i) => ({
          id: `r-${i}`,
          assessment_id: 'a-locked',
          condition,
          agreed: true,
          comments: '',
          created_at: day(1).toISOString(),
          reviewed_by: 'Doctor',
          locked: true,
        })),
      )
      .execute();

    expect(await migrateToLatest(handle)).toContain(worklists.name);

    const t = await openTestApp({ engine, open: () => Promise.resolve(handle) });
    try {
      const doctor = await signedInAs(t, 'doctor');
      const read = async <T>(url: string) => {
        const response = await t.app.inject({
          method: 'GET',
          url,
          headers: { cookie: doctor.cookie },
        });
        expect(response.statusCode, response.body).toBe(200);
        return response.json<T>();
      };
      const review = await read<ReviewWorklist>('/api/worklists/review');
      expect(review.total).toBe(2);
      expect(review.items.map((i) => [i.assessmentId, i.reason, i.patientNumber])).toEqual([
        ['a-one-high', 'High: TB', 'MIG-0'],
        ['a-two-mod', 'Moderate: HIV', 'MIG-1'],
      ]);
      const followUp = await read<FollowUpList>('/api/worklists/follow-up');
      expect(followUp.total).toBe(1);
      expect(
        followUp.items.map((i) => [i.patient.id, i.assessment.id, i.reason, i.dueDate]),
      ).toEqual([['pr-one', 'a-one-high', 'High: TB', '2026-08-31']]);

      // From here the triggers keep them: the locked review's assessment stays off, and
      // restoring patient one's later (Moderate) assessment makes it the one to follow.
      await db
        .updateTable('assessments')
        .set({ deleted_at: null })
        .where('id', '=', 'a-one-later')
        .execute();
      const after = await read<FollowUpList>('/api/worklists/follow-up');
      expect(after.items.map((i) => [i.assessment.id, i.reason, i.dueDate])).toEqual([
        ['a-one-later', 'Moderate: Asthma', '2026-11-04'],
      ]);
    } finally {
      await t.close();
    }
  });
});
