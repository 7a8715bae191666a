import { describe, expect, it } from 'vitest';
import type { Assessment } from '../../../shared/api/assessments.ts';
import type { Review } from '../../../shared/api/reviews.ts';
import { openTestApp } from '../../testing/app.ts';
import { testDatabases } from '../../testing/databases.ts';
import { undoThrough } from '../../testing/migrations.ts';
import { signedInAs } from '../../testing/users.ts';
import { migrateToLatest } from '../migrate.ts';
import { bool } from '../repositories/executor.ts';
import { reviewJudgement } from './20261125T0200-review-judgement.ts';

describe.each(testDatabases())('the review-judgement migration on $engine', (testDatabase) => {
  it('reads earlier review rows as decided when agreed or commented, else as not reviewed', async () => {
    const t = await openTestApp(testDatabase);
    try {
      const nurse = await signedInAs(t, 'nurse');
      const doctor = await signedInAs(t, 'doctor', 'doctor-dee', 'Dee Doctor');
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/assessments',
        headers: { cookie: nurse.cookie },
        payload: { demographics: { age: 30, gender: 'Male', height: 180, weight: 70 } },
      });
      expect(created.statusCode, created.body).toBe(201);
      const assessmentId = created.json<Assessment>().id;

      await undoThrough(t.database, reviewJudgement.name);
      // A finalized review as the version before stored it: every condition has a row.
      const row = (condition: string, agreed: boolean, comments: string) => ({
        id: `r-${condition}`,
        assessment_id: assessmentId,
        condition,
        agreed,
        comments,
        created_at: '2026-11-22T08:00:00.000Z',
        reviewed_by: 'Dee Doctor',
        locked: true,
      });
      await t.database.db
        .insertInto('doctor_reviews')
        .values([
          row('DM2', true, ''),
          row('HIV', true, 'Agree.'),
          row('TB', false, 'Cough is from a cold.'),
          row('Asthma', false, ''),
          row('Hypertension', false, ''),
          row('Hyperlipidaemia', true, ''),
        ])
        .execute();

      expect(await migrateToLatest(t.database)).toContain(reviewJudgement.name);

      const stored = await t.database.db
        .selectFrom('doctor_reviews')
        .select(['condition', 'decided', 'doctor_status', 'agreed', 'comments', 'locked'])
        .where('assessment_id', '=', assessmentId)
        .orderBy('condition')
        .execute();
      expect(
        stored.map((r) => [r.condition, bool(r.decided), r.doctor_status, bool(r.agreed)]),
      ).toEqual([
        ['Asthma', false, null, false],
        ['DM2', true, null, true],
        ['HIV', true, null, true],
        ['Hyperlipidaemia', true, null, true],
        ['Hypertension', false, null, false],
        ['TB', true, null, false],
      ]);

      const read = await t.app.inject({
        method: 'GET',
        url: `/api/assessments/${assessmentId}/review`,
        headers: { cookie: doctor.cookie },
      });
      expect(read.statusCode, read.body).toBe(200);
      const review = read.json<Review>();
      expect(review.locked).toBe(true);
      expect(review.reviews).toEqual([
        { condition: 'DM2', decided: true, agreed: true, comments: '', doctorStatus: null },
        { condition: 'HIV', decided: true, agreed: true, comments: 'Agree.', doctorStatus: null },
        {
          condition: 'TB',
          decided: true,
          agreed: false,
          comments: 'Cough is from a cold.',
          doctorStatus: null,
        },
        { condition: 'Asthma', decided: false, agreed: false, comments: '', doctorStatus: null },
        {
          condition: 'Hypertension',
          decided: false,
          agreed: false,
          comments: '',
          doctorStatus: null,
        },
        {
          condition: 'Hyperlipidaemia',
          decided: true,
          agreed: true,
          comments: '',
          doctorStatus: null,
        },
      ]);

      // A status outside the four a doctor may give is refused by the database itself.
      await expect(
        t.database.db
          .updateTable('doctor_reviews')
          .set({ doctor_status: 'UNKNOWN' as 'TRUE' })
          .where('id', '=', 'r-TB')
          .execute(),
      ).rejects.toThrow();
    } finally {
      await t.close();
    }
  });
});
