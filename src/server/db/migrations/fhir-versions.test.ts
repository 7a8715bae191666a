import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Assessment } from '../../../shared/api/assessments.ts';
import { openTestApp } from '../../testing/app.ts';
import { testDatabases } from '../../testing/databases.ts';
import { undoThrough } from '../../testing/migrations.ts';
import { signedInAs } from '../../testing/users.ts';
import { migrateToLatest } from '../migrate.ts';
import { fhirVersions } from './20261128T1400-fhir-versions.ts';
import { migrations } from './index.ts';

describe.each(testDatabases())('the fhir-versions migration on $engine', (testDatabase) => {
  it('counts one review write, at the time of its rows, for each assessment reviewed before', async () => {
    const t = await openTestApp(testDatabase);
    try {
      const db = t.database.db;
      // The database as the version before this migration made it, with two assessments, one
      // of them reviewed an hour after it was saved.
      await undoThrough(t.database, fhirVersions.name);
      await expect(
        db.selectFrom('assessments').select('review_version').execute(),
      ).rejects.toThrow();
      const nurse = await signedInAs(t, 'nurse');
      const save = async () => {
        const response = await t.app.inject({
          method: 'POST',
          url: '/api/assessments',
          headers: { cookie: nurse.cookie },
          payload: { demographics: { age: 50, gender: 'Male', height: 170, weight: 80 } },
        });
        expect(response.statusCode, response.body).toBe(201);
        return response.json<Assessment>();
      };
      const reviewed = await save();
      const unreviewed = await save();
      t.advance(3_600_000);
      const reviewedAt = t.context.now().toISOString();
      await db
        .insertInto('doctor_reviews')
        .values(
          ['DM2', 'HIV'].map((condition) => ({
            id: crypto.randomUUID(),
            assessment_id: reviewed.id,
            condition,
            agreed: true,
            comments: condition === 'DM2' ? 'Repeat HbA1c.' : '',
            created_at: reviewedAt,
            reviewed_by: 'Dee Doctor',
            locked: false,
          })),
        )
        .execute();
      const before = await db
        .selectFrom('assessments')
        .select(['id', 'version', 'updated_at', 'risk_rank', 'review_locked'])
        .orderBy('id')
        .execute();

      expect(await migrateToLatest(t.database)).toEqual(
        migrations.slice(migrations.indexOf(fhirVersions)).map((migration) => migration.name),
      );

      // The rows stay as they were, with the review writes counted.
      expect(
        await db
          .selectFrom('assessments')
          .select([
            'id',
            'version',
            'updated_at',
            'risk_rank',
            'review_locked',
            'review_version',
            'reviewed_at',
          ])
          .orderBy('id')
          .execute(),
      ).toEqual(
        before.map((row) => ({
          ...row,
          review_version: row.id === reviewed.id ? 1 : 0,
          reviewed_at: row.id === reviewed.id ? reviewedAt : null,
        })),
      );

      const doctor = await signedInAs(t, 'doctor');
      // The FHIR reads version by them: the reviewed RiskAssessment at its review's time.
      const read = async (id: string) => {
        const response = await t.app.inject({
          method: 'GET',
          url: `/fhir/RiskAssessment/${id}.DM2`,
          headers: { cookie: doctor.cookie },
        });
        expect(response.statusCode, response.body).toBe(200);
        return { etag: response.headers.etag, meta: response.json<{ meta: unknown }>().meta };
      };
      expect(await read(reviewed.id)).toEqual({
        etag: 'W/"2"',
        meta: { versionId: '2', lastUpdated: reviewedAt },
      });
      expect(await read(unreviewed.id)).toEqual({
        etag: 'W/"1"',
        meta: { versionId: '1', lastUpdated: unreviewed.updatedAt },
      });

      // A review written after the upgrade counts on.
      t.advance(60_000);
      const saved = await t.app.inject({
        method: 'PUT',
        url: `/api/assessments/${reviewed.id}/review`,
        headers: { cookie: doctor.cookie },
        payload: { reviews: [{ condition: 'DM2', agreed: true, comments: 'HbA1c ordered.' }] },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(await read(reviewed.id)).toEqual({
        etag: 'W/"3"',
        meta: { versionId: '3', lastUpdated: t.context.now().toISOString() },
      });
    } finally {
      await t.close();
    }
  });
});
