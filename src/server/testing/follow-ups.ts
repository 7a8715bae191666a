import { sql, type Kysely } from 'kysely';
import { expect } from 'vitest';
import type { Assessment } from '../../shared/api/assessments.ts';
import type { Patient } from '../../shared/api/patients.ts';
import { worklistsRepository } from '../db/repositories/worklists.ts';
import type { Database } from '../db/schema.ts';
import type { TestApp } from './app.ts';
import { requestsAs } from './requests.ts';

/** Follow-up Due as rows of [patient number, assessment id, level] in number order, and its length. */
export interface FollowUpList {
  rows: [string, string, number][];
  total: number;
}

/** The follow-up rows and the list's length as the database keeps them. */
export async function keptFollowUps(db: Kysely<Database>): Promise<FollowUpList> {
  const rows = await db
    .selectFrom('patient_follow_ups')
    .innerJoin('patient_records', 'patient_records.id', 'patient_follow_ups.patient_record_id')
    .select(['patient_records.number', 'patient_follow_ups.assessment_id', 'level'])
    .orderBy('patient_records.number')
    .execute();
  return {
    rows: rows.map((row) => [row.number, row.assessment_id, Number(row.level)]),
    total: await worklistsRepository.keptTotal(db, 'follow_up'),
  };
}

/** The same computed from the assessments: each live record's latest live one at High or Moderate. */
export async function computedFollowUps(db: Kysely<Database>): Promise<FollowUpList> {
  const { rows } = await sql<{ number: string; id: string; risk_rank: number }>`
    select pr.number, a.id, a.risk_rank
    from patient_records pr
    join assessments a on a.id = (
      select l.id from assessments l
      where l.patient_record_id = pr.id and l.deleted_at is null
      order by l.created_at desc, l.id desc limit 1
    )
    where pr.deleted_at is null and a.risk_rank < 2
    order by pr.number`.execute(db);
  return {
    rows: rows.map((row) => [row.number, row.id, Number(row.risk_rank)]),
    total: rows.length,
  };
}

/** A patient record for each number, made as `who`; each must be stored. */
export async function patientRecords<const Numbers extends readonly string[]>(
  t: TestApp,
  who: { cookie: string },
  numbers: Numbers,
): Promise<{ -readonly [Index in keyof Numbers]: Patient }> {
  const call = requestsAs(t);
  const records: Patient[] = [];
  for (const number of numbers) {
    const created = await call(who, 'POST', '/api/patients', { number });
    expect(created.statusCode, created.body).toBe(201);
    records.push(created.json<Patient>());
  }
  return records as { -readonly [Index in keyof Numbers]: Patient };
}

/** Saves naming a patient as `who`, a minute apart on the test clock; each must be stored. */
export function linkedSaves(t: TestApp, who: { cookie: string }) {
  const call = requestsAs(t);
  return async (patient: Patient, body: object): Promise<Assessment> => {
    const response = await call(who, 'POST', '/api/assessments', {
      ...body,
      patientId: patient.id,
    });
    expect(response.statusCode, response.body).toBe(201);
    t.advance(60_000);
    return response.json<Assessment>();
  };
}
