import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITIONS, score, type Condition, type RiskStatus } from '../../engine/index.ts';
import type { Assessment } from '../../shared/api/assessments.ts';
import type { AgreementSummary, Review } from '../../shared/api/reviews.ts';
import { bool } from '../db/repositories/executor.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { signedInAs } from '../testing/users.ts';

/** A 30-year-old man of normal weight with nothing to report: every condition is FALSE. */
const healthyPatient = {
  demographics: { age: 30, gender: 'Male', height: 180, weight: 70 },
  riskFactors: { smoking: false, familyHistory: {}, householdTBExposure: false },
} as const;

/** The same man with a long cough, weight loss and night sweats: TB is TRUE, the rest FALSE. */
const coughingPatient = {
  ...healthyPatient,
  symptoms: {
    TB: {
      coughOver14Days: { present: true },
      weightLoss: { present: true, severity: 'loss' },
      nightSweats: { present: true, severity: 'moderate' },
    },
  },
} as const;

const lockedMessage = 'Review is already locked and cannot be modified';

function statusOf(patient: Parameters<typeof score>[0], condition: Condition): RiskStatus {
  const result = score(patient).conditions.find((c) => c.condition === condition);
  if (result === undefined) throw new Error(`No result for ${condition}`);
  return result.riskStatus;
}

type Caller = { cookie: string };

/** A condition the doctor did not choose Agree or Disagree for: the stored default. */
const notReviewed = (condition: Condition) => ({
  condition,
  decided: false,
  agreed: false,
  comments: '',
  doctorStatus: null,
});

/** The If-Match of a change based on this version of an assessment. */
const atVersion = (version: number) => ({ 'if-match': `"${version}"` });

function apiCaller(t: () => TestApp) {
  const call = (
    who: Caller,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    t().app.inject({
      method,
      url,
      headers: { cookie: who.cookie, ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const create = async (who: Caller, body: object) => {
    const response = await call(who, 'POST', '/api/assessments', body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Assessment>();
  };
  return { call, create };
}

describe.each(testDatabases())('the doctor review API on $engine', (testDatabase) => {
  let t: TestApp;
  let nurse: Caller;
  let doctor: Caller & { userId: string };
  let admin: Caller;
  const { call, create } = apiCaller(() => t);

  beforeAll(async () => {
    t = await openTestApp(testDatabase);
    nurse = await signedInAs(t, 'nurse', 'nurse-nia', 'Nia Nurse');
    doctor = await signedInAs(t, 'doctor', 'doctor-dee', 'Dee Doctor');
    admin = await signedInAs(t, 'admin', 'admin-ada', 'Ada Admin');
  });
  afterAll(async () => {
    await t.close();
  });

  const reviewUrl = (id: string) => `/api/assessments/${id}/review`;
  const read = async (who: Caller, id: string) => {
    const response = await call(who, 'GET', reviewUrl(id));
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Review>();
  };
  const storedRows = (id: string) =>
    t.database.db
      .selectFrom('doctor_reviews')
      .select(['id', 'condition', 'agreed', 'comments', 'reviewed_by', 'locked', 'created_at'])
      .where('assessment_id', '=', id)
      .orderBy('condition')
      .execute();
  const auditActions = async (id: string) =>
    (
      await t.database.db
        .selectFrom('audit_events')
        .select(['action', 'username'])
        .where('target_id', '=', id)
        .where('action', 'like', 'review%')
        .orderBy('id')
        .execute()
    ).map((row) => `${row.action} by ${row.username ?? ''}`);

  it('lets no nurse read, save or lock a review', async () => {
    const assessment = await create(nurse, coughingPatient);
    const attempts = [
      await call(nurse, 'GET', reviewUrl(assessment.id)),
      await call(nurse, 'PUT', reviewUrl(assessment.id), { reviews: [] }),
      await call(nurse, 'POST', `${reviewUrl(assessment.id)}/lock`),
      await call(nurse, 'GET', '/api/reviews/agreement'),
    ];
    expect(attempts.map((response) => response.statusCode)).toEqual([403, 403, 403, 403]);
    expect(await storedRows(assessment.id)).toEqual([]);
  });

  it('shows a new review as six conditions, none reviewed, none agreed, without comments', async () => {
    const assessment = await create(nurse, coughingPatient);
    expect(await read(doctor, assessment.id)).toEqual({
      assessmentId: assessment.id,
      locked: false,
      reviewedBy: null,
      reviewedAt: null,
      reviews: CONDITIONS.map((condition) => notReviewed(condition)),
    });
  });

  it('saves a review as the signed-in doctor and reads it back, defaults filling the gaps', async () => {
    const assessment = await create(nurse, coughingPatient);
    t.advance(60_000);
    const savedAt = t.context.now().toISOString();
    const saved = await call(doctor, 'PUT', reviewUrl(assessment.id), {
      reviews: [
        { condition: 'TB', agreed: false, comments: 'Cough explained by reflux.' },
        { condition: 'DM2', agreed: true, comments: '' },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const review = saved.json<Review>();
    expect(review).toMatchObject({ locked: false, reviewedBy: 'Dee Doctor', reviewedAt: savedAt });
    expect(review.reviews.map((r) => r.condition)).toEqual(CONDITIONS);
    expect(review.reviews.find((r) => r.condition === 'TB')).toEqual({
      condition: 'TB',
      decided: true,
      agreed: false,
      comments: 'Cough explained by reflux.',
      doctorStatus: null,
    });
    expect(review.reviews.find((r) => r.condition === 'DM2')).toMatchObject({
      decided: true,
      agreed: true,
    });
    expect(review.reviews.find((r) => r.condition === 'HIV')).toEqual(notReviewed('HIV'));
    expect(await read(doctor, assessment.id)).toEqual(review);
    const reviewer = await t.database.db
      .selectFrom('doctor_reviews')
      .select('reviewed_by_user_id')
      .distinct()
      .where('assessment_id', '=', assessment.id)
      .execute();
    expect(reviewer).toEqual([{ reviewed_by_user_id: doctor.userId }]);
  });

  it('replaces every row on a save, so a condition left out returns to not reviewed', async () => {
    const assessment = await create(nurse, coughingPatient);
    await call(doctor, 'PUT', reviewUrl(assessment.id), {
      reviews: [{ condition: 'DM2', agreed: true, comments: 'first' }],
    });
    await call(doctor, 'PUT', reviewUrl(assessment.id), {
      reviews: [{ condition: 'TB', agreed: true, comments: 'second' }],
    });
    const review = await read(doctor, assessment.id);
    expect(review.reviews.filter((r) => r.decided || r.agreed || r.comments !== '')).toEqual([
      { condition: 'TB', decided: true, agreed: true, comments: 'second', doctorStatus: null },
    ]);
    expect(review.reviews.find((r) => r.condition === 'DM2')).toEqual(notReviewed('DM2'));
    expect(await storedRows(assessment.id)).toHaveLength(6);
  });

  it('refuses to save a locked review with 409, changing nothing', async () => {
    const assessment = await create(nurse, coughingPatient);
    await call(doctor, 'PUT', reviewUrl(assessment.id), {
      reviews: [{ condition: 'TB', agreed: true, comments: 'Agree, refer for sputum.' }],
    });
    const locked = await call(doctor, 'POST', `${reviewUrl(assessment.id)}/lock`);
    expect(locked.statusCode, locked.body).toBe(200);
    expect(locked.json<Review>()).toMatchObject({ locked: true, reviewedBy: 'Dee Doctor' });
    expect(locked.json<Review>().reviews.find((r) => r.condition === 'TB')?.comments).toBe(
      'Agree, refer for sputum.',
    );
    const before = await storedRows(assessment.id);

    const save = await call(admin, 'PUT', reviewUrl(assessment.id), {
      reviews: [{ condition: 'TB', agreed: false, comments: 'changed' }],
    });
    expect(save.statusCode).toBe(409);
    expect(save.json()).toEqual({ error: { code: 'review_locked', message: lockedMessage } });
    const relock = await call(admin, 'POST', `${reviewUrl(assessment.id)}/lock`, {
      reviews: [{ condition: 'TB', agreed: false, comments: 'changed' }],
    });
    expect(relock.statusCode).toBe(409);
    expect(relock.json()).toEqual({ error: { code: 'review_locked', message: lockedMessage } });
    expect(await storedRows(assessment.id)).toEqual(before);
    expect(await read(doctor, assessment.id)).toEqual(locked.json());
  });

  it('saves and locks in one step when the lock carries reviews', async () => {
    const assessment = await create(nurse, coughingPatient);
    const locked = await call(admin, 'POST', `${reviewUrl(assessment.id)}/lock`, {
      reviews: [{ condition: 'HIV', agreed: true, comments: 'No concerns.' }],
    });
    expect(locked.statusCode, locked.body).toBe(200);
    expect(locked.json<Review>()).toMatchObject({ locked: true, reviewedBy: 'Ada Admin' });
    expect(locked.json<Review>().reviews.find((r) => r.condition === 'HIV')).toEqual({
      condition: 'HIV',
      decided: true,
      agreed: true,
      comments: 'No concerns.',
      doctorStatus: null,
    });
    const rows = await storedRows(assessment.id);
    expect(rows).toHaveLength(6);
    expect(rows.map((row) => bool(row.locked))).toEqual(Array(6).fill(true));
    expect(await auditActions(assessment.id)).toEqual(['review_lock by admin-ada']);
  });

  it('locks the defaults, none reviewed, when a review never saved is locked with {}', async () => {
    const assessment = await create(nurse, coughingPatient);
    const locked = await call(doctor, 'POST', `${reviewUrl(assessment.id)}/lock`, {});
    expect(locked.statusCode, locked.body).toBe(200);
    expect(locked.json<Review>()).toMatchObject({
      locked: true,
      reviews: CONDITIONS.map((condition) => notReviewed(condition)),
    });
    expect(await storedRows(assessment.id)).toHaveLength(6);
  });

  it('lets exactly one of two racing locks through and keeps what that one wrote', async () => {
    const assessment = await create(nurse, coughingPatient);
    const lockWith = (who: Caller, comments: string) =>
      call(who, 'POST', `${reviewUrl(assessment.id)}/lock`, {
        reviews: [{ condition: 'TB', agreed: true, comments }],
      });
    const responses = await Promise.all([lockWith(doctor, 'doctor'), lockWith(admin, 'admin')]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const winner = responses.find((r) => r.statusCode === 200);
    expect(await read(doctor, assessment.id)).toEqual(winner?.json());
  });

  it('never changes a review once a racing lock has won over a save', async () => {
    const assessment = await create(nurse, coughingPatient);
    const [save, lock] = await Promise.all([
      call(doctor, 'PUT', reviewUrl(assessment.id), {
        reviews: [{ condition: 'TB', agreed: true, comments: 'save' }],
      }),
      call(admin, 'POST', `${reviewUrl(assessment.id)}/lock`, {
        reviews: [{ condition: 'TB', agreed: false, comments: 'lock' }],
      }),
    ]);
    expect(lock.statusCode, lock.body).toBe(200);
    // The save either came first (and the lock replaced it) or was refused.
    expect([200, 409]).toContain(save.statusCode);
    expect(await read(doctor, assessment.id)).toEqual(lock.json());
  });

  it('answers 404 for an unknown or deleted assessment, and writes nothing to a deleted one', async () => {
    const unknown = await call(doctor, 'GET', reviewUrl('no-such-assessment'));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({
      error: { code: 'not_found', message: 'Failed to load assessment' },
    });
    expect(
      (await call(doctor, 'PUT', reviewUrl('no-such-assessment'), { reviews: [] })).statusCode,
    ).toBe(404);

    const assessment = await create(nurse, coughingPatient);
    await call(doctor, 'PUT', reviewUrl(assessment.id), {
      reviews: [{ condition: 'TB', agreed: true, comments: 'before deletion' }],
    });
    expect(
      (await call(nurse, 'DELETE', `/api/assessments/${assessment.id}`, undefined, atVersion(1)))
        .statusCode,
    ).toBe(204);
    const before = await storedRows(assessment.id);
    const attempts = [
      await call(doctor, 'GET', reviewUrl(assessment.id)),
      await call(doctor, 'PUT', reviewUrl(assessment.id), { reviews: [] }),
      await call(admin, 'PUT', reviewUrl(assessment.id), { reviews: [] }),
      await call(admin, 'POST', `${reviewUrl(assessment.id)}/lock`),
    ];
    expect(attempts.map((response) => response.statusCode)).toEqual([404, 404, 404, 404]);
    expect(attempts[0]?.json()).toEqual({
      error: { code: 'not_found', message: 'Failed to load assessment' },
    });
    expect(await storedRows(assessment.id)).toEqual(before);
    // An admin, who may restore the assessment, may still read what it holds.
    expect((await read(admin, assessment.id)).reviews.find((r) => r.condition === 'TB')).toEqual({
      condition: 'TB',
      decided: true,
      agreed: true,
      comments: 'before deletion',
      doctorStatus: null,
    });
  });

  it.each([
    [
      'a condition reviewed twice',
      {
        reviews: [
          { condition: 'TB', agreed: true, comments: '' },
          { condition: 'TB', agreed: false, comments: '' },
        ],
      },
      'reviews.1.condition',
    ],
    [
      'an unknown condition',
      { reviews: [{ condition: 'Gout', agreed: true, comments: '' }] },
      'reviews.0.condition',
    ],
    [
      'comments over 10000 characters',
      { reviews: [{ condition: 'TB', agreed: true, comments: 'x'.repeat(10_001) }] },
      'reviews.0.comments',
    ],
    ['a missing agreed', { reviews: [{ condition: 'TB', comments: '' }] }, 'reviews.0.agreed'],
    [
      'a doctor status with an agreement',
      {
        reviews: [
          { condition: 'DM2', agreed: false, comments: '', doctorStatus: 'TRUE' },
          { condition: 'TB', agreed: true, comments: '', doctorStatus: 'MAYBE' },
        ],
      },
      'reviews.1.doctorStatus',
    ],
    [
      'a doctor status the doctor may not give',
      { reviews: [{ condition: 'TB', agreed: false, comments: '', doctorStatus: 'UNKNOWN' }] },
      'reviews.0.doctorStatus',
    ],
  ])('refuses %s with 400 naming the field, changing nothing', async (_name, body, field) => {
    const assessment = await create(nurse, coughingPatient);
    for (const url of [reviewUrl(assessment.id), `${reviewUrl(assessment.id)}/lock`]) {
      const response = await call(doctor, url.endsWith('/lock') ? 'POST' : 'PUT', url, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: { code: 'validation_failed', field } });
    }
    expect(await storedRows(assessment.id)).toEqual([]);
  });

  it('keeps the status a disagreeing doctor would give, through a save and a lock without a body', async () => {
    const assessment = await create(nurse, coughingPatient);
    const saved = await call(doctor, 'PUT', reviewUrl(assessment.id), {
      reviews: [
        { condition: 'TB', agreed: false, comments: 'Likely a cold.', doctorStatus: 'MAYBE' },
        { condition: 'HIV', agreed: false, comments: '' },
        { condition: 'DM2', agreed: true, comments: '', doctorStatus: null },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const expected = [
      { condition: 'DM2', decided: true, agreed: true, comments: '', doctorStatus: null },
      { condition: 'HIV', decided: true, agreed: false, comments: '', doctorStatus: null },
      {
        condition: 'TB',
        decided: true,
        agreed: false,
        comments: 'Likely a cold.',
        doctorStatus: 'MAYBE',
      },
      notReviewed('Asthma'),
      notReviewed('Hypertension'),
      notReviewed('Hyperlipidaemia'),
    ];
    expect(saved.json<Review>().reviews).toEqual(expected);
    expect(
      await t.database.db
        .selectFrom('doctor_reviews')
        .select(['condition', 'doctor_status'])
        .where('assessment_id', '=', assessment.id)
        .where('doctor_status', 'is not', null)
        .execute(),
    ).toEqual([{ condition: 'TB', doctor_status: 'MAYBE' }]);

    const locked = await call(doctor, 'POST', `${reviewUrl(assessment.id)}/lock`);
    expect(locked.statusCode, locked.body).toBe(200);
    expect(locked.json<Review>()).toMatchObject({ locked: true, reviews: expected });
    expect((await read(doctor, assessment.id)).reviews).toEqual(expected);
  });

  it('locks with a doctor status in the body, and with no choice at all keeps none decided', async () => {
    const withStatus = await create(nurse, coughingPatient);
    const locked = await call(doctor, 'POST', `${reviewUrl(withStatus.id)}/lock`, {
      reviews: [{ condition: 'Asthma', agreed: false, comments: '', doctorStatus: 'DIAGNOSED' }],
    });
    expect(locked.statusCode, locked.body).toBe(200);
    expect(locked.json<Review>().reviews.filter((r) => r.decided)).toEqual([
      {
        condition: 'Asthma',
        decided: true,
        agreed: false,
        comments: '',
        doctorStatus: 'DIAGNOSED',
      },
    ]);

    const nothingChosen = await create(nurse, coughingPatient);
    const saved = await call(doctor, 'PUT', reviewUrl(nothingChosen.id), { reviews: [] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<Review>().reviews).toEqual(CONDITIONS.map((c) => notReviewed(c)));
  });

  it('writes one audit row per save and lock, and none for a refused change', async () => {
    const assessment = await create(nurse, coughingPatient);
    await call(doctor, 'PUT', reviewUrl(assessment.id), { reviews: [] });
    await call(admin, 'PUT', reviewUrl(assessment.id), { reviews: [] });
    await call(doctor, 'POST', `${reviewUrl(assessment.id)}/lock`);
    await call(doctor, 'PUT', reviewUrl(assessment.id), { reviews: [] });
    await call(doctor, 'POST', `${reviewUrl(assessment.id)}/lock`);
    expect(await auditActions(assessment.id)).toEqual([
      'review_save by doctor-dee',
      'review_save by admin-ada',
      'review_lock by doctor-dee',
    ]);
  });
});

describe.each(testDatabases())('the review agreement summary on $engine', (testDatabase) => {
  let t: TestApp;
  let nurse: Caller;
  let doctor: Caller;
  let admin: Caller;
  const { call, create } = apiCaller(() => t);

  beforeAll(async () => {
    t = await openTestApp(testDatabase);
    nurse = await signedInAs(t, 'nurse');
    doctor = await signedInAs(t, 'doctor');
    admin = await signedInAs(t, 'admin');
  });
  afterAll(async () => {
    await t.close();
  });

  const summary = async (who: Caller) => {
    const response = await call(who, 'GET', '/api/reviews/agreement');
    expect(response.statusCode, response.body).toBe(200);
    return response.json<AgreementSummary>();
  };
  const conditionOf = (result: AgreementSummary, condition: Condition) => {
    const found = result.conditions.find((c) => c.condition === condition);
    if (found === undefined) throw new Error(`No summary for ${condition}`);
    return found;
  };
  const review = async (
    patient: object,
    verdicts: { condition: Condition; agreed: boolean }[],
    then: 'lock' | 'save',
  ) => {
    const assessment = await create(nurse, patient);
    const reviews = verdicts.map((verdict) => ({ ...verdict, comments: '' }));
    const response =
      then === 'lock'
        ? await call(doctor, 'POST', `/api/assessments/${assessment.id}/review/lock`, { reviews })
        : await call(doctor, 'PUT', `/api/assessments/${assessment.id}/review`, { reviews });
    expect(response.statusCode, response.body).toBe(200);
    return assessment;
  };

  it('shows every condition unreviewed, with no share, before any review is finalized', async () => {
    const result = await summary(doctor);
    expect(result.conditions.map((c) => c.condition)).toEqual(CONDITIONS);
    for (const condition of result.conditions) {
      expect(condition).toMatchObject({ reviewed: 0, agreed: 0, share: null });
      expect(condition.byStatus.every((s) => s.reviewed === 0 && s.agreed === 0)).toBe(true);
    }
  });

  it("counts the decided conditions of finalized reviews of live assessments, split by the rules' status", async () => {
    expect(statusOf(coughingPatient, 'TB')).toBe('TRUE');
    expect(statusOf(healthyPatient, 'TB')).toBe('FALSE');
    expect(statusOf(coughingPatient, 'DM2')).toBe('FALSE');
    expect(statusOf(healthyPatient, 'DM2')).toBe('FALSE');

    // Counted: two TB TRUE results (one agreed) and one TB FALSE result (agreed).
    await review(
      coughingPatient,
      [
        { condition: 'TB', agreed: false },
        { condition: 'DM2', agreed: true },
      ],
      'lock',
    );
    await review(coughingPatient, [{ condition: 'TB', agreed: true }], 'lock');
    await review(
      healthyPatient,
      [
        { condition: 'TB', agreed: true },
        { condition: 'DM2', agreed: true },
      ],
      'lock',
    );
    // Not counted: a review still open, and a finalized review of a deleted assessment.
    await review(coughingPatient, [{ condition: 'TB', agreed: true }], 'save');
    const deleted = await review(coughingPatient, [{ condition: 'TB', agreed: true }], 'lock');
    expect(
      (await call(nurse, 'DELETE', `/api/assessments/${deleted.id}`, undefined, atVersion(1)))
        .statusCode,
    ).toBe(204);

    const result = await summary(admin);
    const tb = conditionOf(result, 'TB');
    expect(tb).toMatchObject({ reviewed: 3, agreed: 2 });
    expect(tb.share).toBeCloseTo(2 / 3, 10);
    expect(tb.byStatus).toEqual([
      { riskStatus: 'FALSE', reviewed: 1, agreed: 1 },
      { riskStatus: 'MAYBE', reviewed: 0, agreed: 0 },
      { riskStatus: 'TRUE', reviewed: 2, agreed: 1 },
      { riskStatus: 'DIAGNOSED', reviewed: 0, agreed: 0 },
      { riskStatus: 'UNKNOWN', reviewed: 0, agreed: 0 },
    ]);
    expect(conditionOf(result, 'DM2')).toMatchObject({ reviewed: 2, agreed: 2, share: 1 });
    // Conditions the doctors left untouched are not reviewed, and in no count.
    expect(conditionOf(result, 'HIV')).toMatchObject({ reviewed: 0, agreed: 0, share: null });
  });
});
