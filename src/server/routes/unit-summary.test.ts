import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITIONS } from '../../engine/index.ts';
import type { Assessment } from '../../shared/api/assessments.ts';
import type { OrgUnitSummary, OrgUnitSummaryRow } from '../../shared/api/org-units.ts';
import type { Patient } from '../../shared/api/patients.ts';
import type { FollowUpList } from '../../shared/api/worklists.ts';
import { orgUnitsRepository } from '../db/repositories/org-units.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { madeUnit } from '../testing/org-units.ts';
import { atVersion, requestsAs, type Requests } from '../testing/requests.ts';
import { highRiskBody, lowRiskBody, moderateRiskBody } from '../testing/risk-bodies.ts';
import { signedInAs } from '../testing/users.ts';

type Who = { cookie: string };
type Figures = Omit<OrgUnitSummaryRow, 'unit' | 'ownRecordsOnly'>;

const day = 24 * 3_600_000;

/**
 * A unit's roll-up (issue 36) against counts over the stored rows, on a tree of MAIN with two
 * districts, D1 (facilities F11 and F12, and records of its own) and D2 (facility F21).
 */
describe.each(testDatabases())('a unit’s roll-up on $engine', (testDatabase) => {
  let t: TestApp;
  let call: Requests;
  let admin: Who;
  let manager: Who;
  let units: Record<'MAIN' | 'D1' | 'D2' | 'F11' | 'F12' | 'F21', string>;
  /** Days on the clinic's calendar: the first saves, and the later ones. */
  let firstDay: string;
  let laterDay: string;

  beforeAll(async () => {
    t = await openTestApp(testDatabase, { TRIAGE_TIME_ZONE: 'Africa/Johannesburg' });
    call = requestsAs(t);
    admin = await signedInAs(t, 'admin');
    const main = await orgUnitsRepository.findMain(t.database.db);
    const d1 = await madeUnit(t, admin, 'D1');
    const d2 = await madeUnit(t, admin, 'D2');
    units = {
      MAIN: main?.id ?? '',
      D1: d1.id,
      D2: d2.id,
      F11: (await madeUnit(t, admin, 'F11', d1.id)).id,
      F12: (await madeUnit(t, admin, 'F12', d1.id)).id,
      F21: (await madeUnit(t, admin, 'F21', d2.id)).id,
    };
    const doctorIn = (unit: keyof typeof units) =>
      signedInAs(t, 'doctor', undefined, undefined, [units[unit]]);
    manager = await signedInAs(t, 'manager', undefined, undefined, [units.D1]);

    /** Saves as a doctor of the unit, for a new patient of the unit when `number` is given. */
    const save = async (who: Who, body: object, number?: string): Promise<Assessment> => {
      let patientId: string | undefined;
      if (number !== undefined) {
        const made = await call(who, 'POST', '/api/patients', { number });
        expect(made.statusCode, made.body).toBe(201);
        patientId = made.json<Patient>().id;
      }
      const response = await call(who, 'POST', '/api/assessments', { ...body, patientId });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<Assessment>();
    };
    const signOff = async (who: Who, assessment: Assessment) => {
      const response = await call(
        who,
        'POST',
        `/api/assessments/${assessment.id}/sign-off`,
        undefined,
        atVersion(assessment.version),
      );
      expect(response.statusCode, response.body).toBe(200);
    };
    const lock = async (who: Who, assessment: Assessment, agreedOnTb: boolean) => {
      const response = await call(who, 'POST', `/api/assessments/${assessment.id}/review/lock`, {
        reviews: [
          { condition: 'DM2', agreed: true, comments: '' },
          { condition: 'TB', agreed: agreedOnTb, comments: '' },
        ],
      });
      expect(response.statusCode, response.body).toBe(200);
    };

    // The first day: High and Moderate patients in three facilities, sign-offs, reviews and a
    // delete; 40 days later the High ones are overdue (FOLLOW_UP_DAYS_HIGH is 30), the Moderate
    // ones not yet (90).
    const f11 = await doctorIn('F11');
    const f12 = await doctorIn('F12');
    const f21 = await doctorIn('F21');
    const d1Doctor = await doctorIn('D1');
    const a1 = await save(f11, highRiskBody, 'P-1');
    const a2 = await save(f11, highRiskBody, 'P-2');
    const a3 = await save(f11, lowRiskBody);
    const a4 = await save(f12, moderateRiskBody, 'P-3');
    const a5 = await save(f21, highRiskBody, 'P-4');
    for (const [who, assessment] of [
      [f11, a1],
      [f11, a2],
      [f12, a4],
      [f21, a5],
    ] as const) {
      await signOff(who, assessment);
    }
    await lock(d1Doctor, a1, false);
    await lock(f21, a5, true);
    const deleted = await call(f11, 'DELETE', `/api/assessments/${a3.id}`, undefined, atVersion(1));
    expect(deleted.statusCode, deleted.body).toBe(204);
    firstDay = a1.createdAt.slice(0, 10);

    t.advance(40 * day);
    const later = [
      await signedInAs(t, 'doctor', undefined, undefined, [units.F11]),
      await signedInAs(t, 'doctor', undefined, undefined, [units.D1]),
    ] as const;
    const a6 = await save(later[0], moderateRiskBody);
    // A record of the district itself, beside its facilities'.
    const a7 = await save(later[1], highRiskBody, 'P-5');
    await signOff(later[1], a7);
    await signOff(later[0], a6);
    await lock(later[1], a6, true);
    laterDay = a7.createdAt.slice(0, 10);
    admin = await signedInAs(t, 'admin');
    manager = await signedInAs(t, 'manager', undefined, undefined, [units.D1]);
  });
  afterAll(async () => {
    await t.close();
  });

  /** The figures of the units given, counted from the stored rows (and Follow-up Due's list). */
  async function counted(
    unitIds: readonly string[],
    range: { from?: string; to?: string } = {},
  ): Promise<Figures> {
    const db = t.database.db;
    const yes = sql.raw(t.database.engine === 'postgres' ? 'true' : '1');
    const inUnits = sql`a.org_unit_id in (${sql.join(unitIds)})`;
    const inRange = sql`a.created_local_date >= ${range.from ?? '0'}
      and a.created_local_date <= ${range.to ?? '9'}`;
    const live = await sql<{ n: number | string }>`select count(*) as n from assessments a
      where a.deleted_at is null and ${inUnits} and ${inRange}`.execute(db);
    const results = await sql<{ condition: string; risk_status: string; n: number | string }>`
      select r.condition, r.risk_status, count(*) as n
      from results r join assessments a on a.id = r.assessment_id
      where a.deleted_at is null and ${inUnits} and ${inRange}
      group by r.condition, r.risk_status`.execute(db);
    const awaiting = await sql<{ n: number | string }>`select count(*) as n from assessments a
      where a.deleted_at is null and a.signed_off = ${yes} and ${inUnits} and not exists (
        select 1 from doctor_reviews d where d.assessment_id = a.id and d.locked = ${yes})`.execute(
      db,
    );
    const reviews = await sql<{ agreed: number | boolean }>`select d.agreed
      from doctor_reviews d join assessments a on a.id = d.assessment_id
      where d.locked = ${yes} and d.decided = ${yes} and a.deleted_at is null
        and ${inUnits} and ${inRange}`.execute(db);
    const followUps = await call(admin, 'GET', '/api/worklists/follow-up?limit=100');
    expect(followUps.statusCode, followUps.body).toBe(200);
    const overdueIds = followUps
      .json<FollowUpList>()
      .items.filter((item) => item.daysOverdue > 0)
      .map((item) => item.patient.id);
    const overdueInUnits =
      overdueIds.length === 0
        ? 0
        : (
            await db
              .selectFrom('patient_records')
              .select('id')
              .where('id', 'in', overdueIds)
              .where('org_unit_id', 'in', unitIds)
              .execute()
          ).length;
    const statusCount = (condition: string, status: string) =>
      Number(
        results.rows.find((row) => row.condition === condition && row.risk_status === status)?.n ??
          0,
      );
    const agreed = reviews.rows.filter((row) => row.agreed === true || row.agreed === 1).length;
    return {
      assessments: Number(live.rows[0]?.n),
      conditions: CONDITIONS.map((condition) => ({
        condition,
        high: statusCount(condition, 'TRUE'),
        moderate: statusCount(condition, 'MAYBE'),
      })),
      awaitingReview: Number(awaiting.rows[0]?.n),
      followUpOverdue: overdueInUnits,
      agreementShare: reviews.rows.length === 0 ? null : agreed / reviews.rows.length,
    };
  }

  const summary = async (who: Who, unitId: string, query = '') => {
    const response = await call(who, 'GET', `/api/org-units/${unitId}/summary${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<OrgUnitSummary>();
  };
  const figuresOf = ({ unit: _unit, ownRecordsOnly: _own, ...figures }: OrgUnitSummaryRow) =>
    figures;

  it('gives each district below the top its figures, equal to counts over the stored rows', async () => {
    const top = await summary(admin, units.MAIN);
    expect(top.unit).toEqual({ id: units.MAIN, code: 'MAIN', name: 'Main clinic', parentId: null });
    expect(
      top.rows.map((row) => [row.unit.code, row.unit.hasChildren, row.ownRecordsOnly]),
    ).toEqual([
      ['D1', true, false],
      ['D2', true, false],
    ]);
    const [d1, d2] = top.rows as [OrgUnitSummaryRow, OrgUnitSummaryRow];
    expect(figuresOf(d1)).toEqual(await counted([units.D1, units.F11, units.F12]));
    expect(figuresOf(d2)).toEqual(await counted([units.D2, units.F21]));
    // What the rows say, beside the recount: D1 has five live assessments (one of the district's
    // own), three awaiting review, two patients overdue at High, and three of four conditions
    // agreed.
    expect(d1).toMatchObject({ assessments: 5, awaitingReview: 3, followUpOverdue: 2 });
    expect(d1.agreementShare).toBe(3 / 4);
    expect(d2).toMatchObject({ assessments: 1, awaitingReview: 0, followUpOverdue: 1 });
    expect(d2.agreementShare).toBe(1);
  });

  it('gives a district manager the facilities and the district’s own records', async () => {
    const district = await summary(manager, units.D1);
    // MAIN is outside the manager's scope: no way up.
    expect(district.unit).toMatchObject({ code: 'D1', parentId: null });
    expect(
      district.rows.map((row) => [row.unit.code, row.unit.hasChildren, row.ownRecordsOnly]),
    ).toEqual([
      ['F11', false, false],
      ['F12', false, false],
      ['D1', false, true],
    ]);
    const [f11, f12, own] = district.rows as [
      OrgUnitSummaryRow,
      OrgUnitSummaryRow,
      OrgUnitSummaryRow,
    ];
    expect(figuresOf(f11)).toEqual(await counted([units.F11]));
    expect(figuresOf(f12)).toEqual(await counted([units.F12]));
    expect(figuresOf(own)).toEqual(await counted([units.D1]));
    expect(own.assessments).toBe(1);

    // A facility has one row, for itself; its parent is within the manager's scope.
    const facility = await summary(manager, units.F11);
    expect(facility.unit).toMatchObject({ code: 'F11', parentId: units.D1 });
    expect(facility.rows.map((row) => row.unit.code)).toEqual(['F11']);
    expect(figuresOf(facility.rows[0] as OrgUnitSummaryRow)).toEqual(await counted([units.F11]));
  });

  it('counts the assessments, risks and agreement of the dates given', async () => {
    for (const [from, to] of [
      [firstDay, firstDay],
      [laterDay, laterDay],
      [firstDay, laterDay],
    ] as const) {
      const district = await summary(manager, units.D1, `?from=${from}&to=${to}`);
      const [f11, f12, own] = district.rows as [
        OrgUnitSummaryRow,
        OrgUnitSummaryRow,
        OrgUnitSummaryRow,
      ];
      expect(figuresOf(f11)).toEqual(await counted([units.F11], { from, to }));
      expect(figuresOf(f12)).toEqual(await counted([units.F12], { from, to }));
      expect(figuresOf(own)).toEqual(await counted([units.D1], { from, to }));
    }
    const first = await summary(manager, units.D1, `?from=${firstDay}&to=${firstDay}`);
    expect(first.rows.map((row) => row.assessments)).toEqual([2, 1, 0]);
  });

  it('opens at the top of the caller’s scope', async () => {
    const opening = async (who: Who) => {
      const response = await call(who, 'GET', '/api/org-units/summary');
      expect(response.statusCode, response.body).toBe(200);
      return response.json<OrgUnitSummary>();
    };
    expect(await opening(manager)).toEqual(await summary(manager, units.D1));
    expect(await opening(admin)).toEqual(await summary(admin, units.MAIN));
    // Units in two branches: a row for each, under no unit.
    const twoFacilities = await signedInAs(t, 'doctor', undefined, undefined, [
      units.F21,
      units.F11,
    ]);
    const both = await opening(twoFacilities);
    expect(both.unit).toBeNull();
    expect(both.rows.map((row) => row.unit.code)).toEqual(['F11', 'F21']);
    expect(figuresOf(both.rows[0] as OrgUnitSummaryRow)).toEqual(await counted([units.F11]));
    expect(figuresOf(both.rows[1] as OrgUnitSummaryRow)).toEqual(await counted([units.F21]));
  });

  it('answers a unit outside the scope, or none, as if it did not exist', async () => {
    const facilityDoctor = await signedInAs(t, 'doctor', undefined, undefined, [units.F11]);
    for (const [who, unitId] of [
      [manager, units.D2],
      [manager, units.F21],
      [manager, units.MAIN],
      [facilityDoctor, units.D1],
      [facilityDoctor, units.F12],
      [admin, 'no-such-unit'],
    ] as const) {
      const response = await call(who, 'GET', `/api/org-units/${unitId}/summary`);
      expect(response.statusCode, unitId).toBe(404);
      expect(response.json()).toMatchObject({ error: { code: 'not_found' } });
    }
    expect((await summary(facilityDoctor, units.F11)).rows).toHaveLength(1);
    const nurse = await signedInAs(t, 'nurse', undefined, undefined, [units.F11]);
    expect((await call(nurse, 'GET', `/api/org-units/${units.F11}/summary`)).statusCode).toBe(403);
  });
});
