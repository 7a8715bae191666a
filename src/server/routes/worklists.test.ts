import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assessment } from '../../shared/api/assessments.ts';
import type { Patient } from '../../shared/api/patients.ts';
import type { FollowUpList, ReviewWorklist } from '../../shared/api/worklists.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { signedInAs, testPassword } from '../testing/users.ts';
import {
  highRiskBody as high,
  lowRiskBody as low,
  moderateRiskBody as moderate,
} from '../testing/risk-bodies.ts';

const dayMs = 86_400_000;

/** DM2 diagnosed, nothing else above Low. */
const diagnosed = {
  ...moderate,
  management: {
    DM2: { diagnosed: true, lastDoctorVisit: '<4months', prescriptionDuration: '<4months' },
  },
};

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Who = { cookie: string; userId: string };

describe.each(testDatabases())('worklists on $engine', (testDatabase) => {
  let t: TestApp;
  let nurse: Who;
  let doctor: Who;
  let admin: Who;

  beforeAll(async () => {
    t = await openTestApp(testDatabase);
    nurse = await signedInAs(t, 'nurse', 'nurse-nia', 'Nia Nurse');
    doctor = await signedInAs(t, 'doctor', 'doctor-dee', 'Dee Doctor');
    admin = await signedInAs(t, 'admin', 'admin-ada', 'Ada Admin');
  });
  afterAll(async () => {
    await t.close();
  });

  /** Moves the clock on; sessions end meanwhile, so everyone signs in again. */
  const later = async (milliseconds: number) => {
    t.advance(milliseconds);
    for (const [who, username] of [
      [nurse, 'nurse-nia'],
      [doctor, 'doctor-dee'],
      [admin, 'admin-ada'],
    ] as const) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/session',
        payload: { username, password: testPassword },
      });
      const cookie = response.cookies.find((c) => c.name === 'triage_session');
      who.cookie = `triage_session=${cookie?.value ?? ''}`;
    }
  };
  const call = (
    who: Who,
    method: Method,
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
    app = t.app,
  ) =>
    app.inject({
      method,
      url,
      headers: { cookie: who.cookie, ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const patient = async (number: string, name: string) => {
    const response = await call(nurse, 'POST', '/api/patients', { number, name });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Patient>();
  };
  const assess = async (body: object, patientId?: string) => {
    const response = await call(nurse, 'POST', '/api/assessments', {
      ...body,
      ...(patientId === undefined ? {} : { patientId }),
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Assessment>();
  };
  const signOff = async (a: Assessment) => {
    const response = await call(nurse, 'POST', `/api/assessments/${a.id}/sign-off`, undefined, {
      'if-match': `"${a.version}"`,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Assessment>();
  };
  const remove = async (a: Assessment) => {
    const response = await call(admin, 'DELETE', `/api/assessments/${a.id}`, undefined, {
      'if-match': `"${a.version}"`,
    });
    expect(response.statusCode, response.body).toBe(204);
  };
  const restore = async (a: Assessment) => {
    const response = await call(admin, 'POST', `/api/assessments/${a.id}/restore`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Assessment>();
  };
  const reviewList = async (query = '', who = doctor) => {
    const response = await call(who, 'GET', `/api/worklists/review${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ReviewWorklist>();
  };
  const followUps = async (query = '', app = t.app) => {
    const response = await call(
      nurse,
      'GET',
      `/api/worklists/follow-up${query}`,
      undefined,
      {},
      app,
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json<FollowUpList>();
  };
  /** Every page of a list, following its cursor. */
  const allPages = async <T extends { nextCursor: string | null }>(
    read: (query: string) => Promise<T>,
    limit: number,
  ): Promise<T[]> => {
    const pages = [await read(`?limit=${limit}`)];
    for (let next = pages[0]?.nextCursor; next; next = pages.at(-1)?.nextCursor) {
      pages.push(await read(`?limit=${limit}&cursor=${encodeURIComponent(next)}`));
    }
    return pages;
  };

  describe('Awaiting Review', () => {
    it('is for doctors and admins: a nurse is refused', async () => {
      const response = await call(nurse, 'GET', '/api/worklists/review');
      expect(response.statusCode).toBe(403);
      expect((await call(admin, 'GET', '/api/worklists/review')).statusCode).toBe(200);
    });

    it('lists signed-off live assessments without a locked review, most urgent first', async () => {
      const p = await patient('WL-R1', 'Rita Review');
      const highFirst = await assess(high, p.id);
      const none = await assess(low);
      const moderateOne = await assess(moderate);
      const highLater = await assess(high);
      const highSameTime = await assess(high);
      const notSignedOff = await assess(high);
      await signOff(highFirst);
      t.advance(60_000);
      await signOff(none);
      t.advance(60_000);
      const moderateSigned = await signOff(moderateOne);
      t.advance(60_000);
      await signOff(highLater);
      await signOff(highSameTime);

      const list = await reviewList();
      expect(list.total).toBe(5);
      // Signed off at the same instant: by id.
      const tied = [highLater.id, highSameTime.id].sort();
      expect(list.items.map((i) => i.assessmentId)).toEqual([
        highFirst.id,
        ...tied,
        moderateOne.id,
        none.id,
      ]);
      expect(list.items.map((i) => i.assessmentId)).not.toContain(notSignedOff.id);
      expect(list.items[0]).toMatchObject({
        code: highFirst.code,
        patientId: p.id,
        patientNumber: 'WL-R1',
        patientName: 'Rita Review',
        signedOffBy: 'Nia Nurse',
        conditions: [
          { condition: 'DM2', riskStatus: 'TRUE' },
          { condition: 'Hyperlipidaemia', riskStatus: 'MAYBE' },
        ],
        reason: 'High: DM2; Moderate: Hyperlipidaemia',
      });
      expect(list.items[3]).toMatchObject({
        patientNumber: null,
        patientName: null,
        reason: 'Moderate: DM2',
      });
      expect(list.items[4]).toMatchObject({ conditions: [] });

      // Two by two, the same order, ending with no cursor.
      const pages = await allPages((q) => reviewList(q), 2);
      expect(pages.map((page) => page.items.length)).toEqual([2, 2, 1]);
      expect(pages.flatMap((page) => page.items.map((i) => i.assessmentId))).toEqual(
        list.items.map((i) => i.assessmentId),
      );
      expect(pages.at(-1)?.nextCursor).toBeNull();

      // A review locked mid-list leaves it; a saved (not locked) review does not.
      const saved = await call(doctor, 'PUT', `/api/assessments/${highSameTime.id}/review`, {
        reviews: [],
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const locked = await call(doctor, 'POST', `/api/assessments/${highLater.id}/review/lock`, {});
      expect(locked.statusCode, locked.body).toBe(200);
      let after = await reviewList();
      expect(after.total).toBe(4);
      expect(after.items.map((i) => i.assessmentId)).toEqual([
        highFirst.id,
        highSameTime.id,
        moderateOne.id,
        none.id,
      ]);

      // A deleted assessment leaves; restored, it returns to its place.
      await remove(moderateSigned);
      after = await reviewList();
      expect(after.total).toBe(3);
      expect(after.items.map((i) => i.assessmentId)).not.toContain(moderateOne.id);
      await restore(moderateSigned);
      after = await reviewList();
      expect(after.total).toBe(4);
      expect(after.items.map((i) => i.assessmentId)[2]).toBe(moderateOne.id);
    });

    it('refuses a malformed cursor', async () => {
      for (const cursor of ['x', Buffer.from('[9,"a","b"]').toString('base64url')]) {
        const response = await call(doctor, 'GET', `/api/worklists/review?cursor=${cursor}`);
        expect(response.statusCode).toBe(400);
      }
    });
  });

  describe('Follow-up Due', () => {
    it('lists patients by the due date of their latest assessment, the earliest first', async () => {
      const start = await followUps();
      expect(start.total).toBe(1); // Rita Review, High, from the review tests.
      const rita = start.items[0]?.patient.id;

      const p4 = await patient('WL-F4', 'Farah Four');
      await assess(moderate, p4.id); // day 0, Moderate: due day 90
      await later(70 * dayMs);
      const p1 = await patient('WL-F1', 'Femi One');
      const p1First = await assess(high, p1.id); // day 70, High: due day 100
      const p2 = await patient('WL-F2', 'Fola Two');
      await assess(moderate, p2.id); // day 70, Moderate: due day 160
      const p5 = await patient('WL-F5', 'Fay Five');
      await assess(diagnosed, p5.id); // DIAGNOSED does not count
      await assess(high); // no patient: cannot be followed
      await later(10 * dayMs);
      const p3 = await patient('WL-F3', 'Fenna Three');
      await assess(high, p3.id); // day 80, High: due day 110

      const list = await followUps();
      const others = (l: FollowUpList) => l.items.filter((i) => i.patient.id !== rita);
      expect(list.total).toBe(5);
      expect(others(list).map((i) => i.patient.number)).toEqual([
        'WL-F4',
        'WL-F1',
        'WL-F3',
        'WL-F2',
      ]);
      const [f4, f1] = others(list);
      expect(f4).toMatchObject({
        patient: { id: p4.id, number: 'WL-F4', name: 'Farah Four' },
        level: 'Moderate',
        reason: 'Moderate: DM2',
        daysOverdue: -10,
      });
      expect(f1).toMatchObject({
        assessment: { id: p1First.id, code: p1First.code, createdAt: p1First.createdAt },
        level: 'High',
        reason: 'High: DM2; Moderate: Hyperlipidaemia',
        dueDate: new Date(Date.parse(p1First.createdAt) + 30 * dayMs).toISOString().slice(0, 10),
        daysOverdue: -20,
      });

      // One by one, the same order.
      const pages = await allPages((q) => followUps(q), 1);
      expect(pages.flatMap((page) => page.items.map((i) => i.patient.id))).toEqual(
        list.items.map((i) => i.patient.id),
      );

      // Assessed again with nothing at High or Moderate, the patient leaves; when that
      // assessment is deleted, the one before it counts again.
      const again = await assess(low, p1.id);
      expect(others(await followUps()).map((i) => i.patient.number)).toEqual([
        'WL-F4',
        'WL-F3',
        'WL-F2',
      ]);
      await remove(again);
      expect(others(await followUps()).map((i) => i.patient.number)).toEqual([
        'WL-F4',
        'WL-F1',
        'WL-F3',
        'WL-F2',
      ]);

      // The settings move the due dates: High every 100 days puts the Moderate one first.
      const longer = await openTestApp(
        { engine: testDatabase.engine, open: () => Promise.resolve(t.database) },
        { FOLLOW_UP_DAYS_HIGH: '100', FOLLOW_UP_DAYS_MODERATE: '60' },
      );
      try {
        longer.advance(80 * dayMs);
        const moved = await followUps('', longer.app);
        expect(others(moved).map((i) => [i.patient.number, i.daysOverdue])).toEqual([
          ['WL-F4', 20],
          ['WL-F2', -50],
          ['WL-F1', -90],
          ['WL-F3', -100],
        ]);
      } finally {
        await longer.app.close();
      }

      // A deleted patient record leaves the list; restored, it returns.
      const deleted = await call(admin, 'DELETE', `/api/patients/${p2.id}`);
      expect(deleted.statusCode, deleted.body).toBe(204);
      expect((await followUps()).total).toBe(4);
      expect((await call(admin, 'POST', `/api/patients/${p2.id}/restore`)).statusCode).toBe(200);
      expect((await followUps()).total).toBe(5);
    });

    it('is for every role, and each reading of it is audited without what it listed', async () => {
      const readings = () =>
        t.database.db
          .selectFrom('audit_events')
          .selectAll()
          .where('action', '=', 'follow_up_list_view')
          .orderBy('id')
          .execute();
      const before = (await readings()).length;
      for (const who of [nurse, doctor, admin]) {
        expect((await call(who, 'GET', '/api/worklists/follow-up')).statusCode).toBe(200);
      }
      const added = (await readings()).slice(before);
      expect(added.map((row) => row.user_id)).toEqual([nurse.userId, doctor.userId, admin.userId]);
      expect(added.every((row) => row.target_id === null && row.outcome === 'success')).toBe(true);
    });
  });
});
