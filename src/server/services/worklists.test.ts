import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assessment } from '../../shared/api/assessments.ts';
import { worklistsRepository } from '../db/repositories/worklists.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { patientRecords } from '../testing/follow-ups.ts';
import { requestsAs } from '../testing/requests.ts';
import { signedInAs } from '../testing/users.ts';
import {
  highRiskBody as high,
  lowRiskBody as low,
  moderateRiskBody as moderate,
} from '../testing/risk-bodies.ts';

describe.each(testDatabases())(
  'what the worklists keep, under concurrent writers, on $engine',
  (testDatabase) => {
    let t: TestApp;
    let nurse: { cookie: string };
    let admin: { cookie: string };
    let doctor: { cookie: string };

    beforeAll(async () => {
      t = await openTestApp(testDatabase);
      nurse = await signedInAs(t, 'nurse');
      admin = await signedInAs(t, 'admin');
      doctor = await signedInAs(t, 'doctor');
    });
    afterAll(async () => {
      await t.close();
    });

    /** The lists computed from scratch, as the migration fills them. */
    const fromScratch = async () => {
      const db = t.database.db;
      const listed =
        t.database.engine === 'postgres'
          ? sql`signed_off and not review_locked and deleted_at is null`
          : sql`signed_off = 1 and review_locked = 0 and deleted_at is null`;
      const { rows: review } = await sql<{ n: number }>`
      select count(*) as n from assessments a
      where a.signed_off ${t.database.engine === 'postgres' ? sql`` : sql`= 1`}
        and a.deleted_at is null
        and not exists (
          select 1 from doctor_reviews d
          where d.assessment_id = a.id and d.locked = ${t.database.engine === 'postgres' ? sql`true` : sql`1`}
        )`.execute(db);
      const { rows: indexed } = await sql<{ n: number }>`
      select count(*) as n from assessments where ${listed}`.execute(db);
      const { rows: followUps } = await sql<{ patient_record_id: string; assessment_id: string }>`
      select a.patient_record_id, a.id as assessment_id
      from patient_records pr
      join assessments a on a.id = (
        select l.id from assessments l
        where l.patient_record_id = pr.id and l.deleted_at is null
        order by l.created_at desc, l.id desc limit 1
      )
      where pr.deleted_at is null
        and exists (
          select 1 from results r
          where r.assessment_id = a.id and r.risk_status in ('TRUE', 'MAYBE')
        )
      order by a.patient_record_id`.execute(db);
      return {
        review: Number(review[0]?.n),
        indexed: Number(indexed[0]?.n),
        followUps,
      };
    };
    const kept = async () => {
      const db = t.database.db;
      const followUps = await db
        .selectFrom('patient_follow_ups')
        .select(['patient_record_id', 'assessment_id'])
        .orderBy('patient_record_id')
        .execute();
      // As the lists read them: each row plus its deltas (migration kept-count-deltas).
      return {
        review: await worklistsRepository.keptTotal(db, 'review'),
        followUpTotal: await worklistsRepository.keptTotal(db, 'follow_up'),
        followUps,
      };
    };

    it('match the lists computed from scratch after many changes at once', async () => {
      const call = requestsAs(t);
      const patients = await patientRecords(t, nurse, ['C-1', 'C-2', 'C-3']);
      const bodies = [high, moderate, low];
      for (let round = 0; round < 4; round++) {
        // Saves for the same patients at once.
        const created = await Promise.all(
          Array.from({ length: 9 }, (_, i) =>
            call(nurse, 'POST', '/api/assessments', {
              ...bodies[(i + round) % 3],
              patientId: patients[i % 3]?.id,
            }).then((r) => r.json<Assessment>()),
          ),
        );
        t.advance(1000);
        // Sign-offs, deletes and review locks at once.
        await Promise.all(
          created.map(async (a, i) => {
            const signed = await call(
              nurse,
              'POST',
              `/api/assessments/${a.id}/sign-off`,
              undefined,
              {
                'if-match': `"${a.version}"`,
              },
            );
            expect(signed.statusCode, signed.body).toBe(200);
            if (i % 3 === 0) {
              const removed = await call(admin, 'DELETE', `/api/assessments/${a.id}`, undefined, {
                'if-match': `"${a.version + 1}"`,
              });
              expect(removed.statusCode, removed.body).toBe(204);
            } else if (i % 3 === 1) {
              const locked = await call(doctor, 'POST', `/api/assessments/${a.id}/review/lock`, {});
              expect(locked.statusCode, locked.body).toBe(200);
            }
          }),
        );
        t.advance(1000);
      }
      const expected = await fromScratch();
      expect(expected.review).toBeGreaterThan(0);
      expect(expected.followUps.length).toBeGreaterThan(0);
      const actual = await kept();
      expect(actual.review).toBe(expected.review);
      expect(expected.indexed).toBe(expected.review);
      expect(actual.followUps).toEqual(expected.followUps);
      expect(actual.followUpTotal).toBe(expected.followUps.length);
    });
  },
);
