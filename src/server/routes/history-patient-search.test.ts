import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assessment, AssessmentList } from '../../shared/api/assessments.ts';
import type { Patient } from '../../shared/api/patients.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { requestsAs, type Requests } from '../testing/requests.ts';
import { signedInAs } from '../testing/users.ts';

const demographics = (gender: 'Male' | 'Female') => ({
  demographics: { age: 50, gender, height: 170, weight: 70 },
});

/**
 * The history's search finds an assessment by the number and name of the patient record it
 * names, as well as by its own id, code and date.
 */
describe.each(testDatabases())('the history searched by patient on $engine', (testDatabase) => {
  let t: TestApp;
  let nurse: { cookie: string };
  let admin: { cookie: string };
  const patients: Record<string, Patient> = {};
  const assessments: Record<string, Assessment> = {};

  let call: Requests;

  beforeAll(async () => {
    t = await openTestApp(testDatabase);
    call = requestsAs(t);
    nurse = await signedInAs(t, 'nurse');
    admin = await signedInAs(t, 'admin');
    for (const [key, body] of [
      ['amina', { number: 'MRN-0001', name: 'Amina Okafor', gender: 'Female' }],
      ['ruth', { number: 'P/77-B', name: 'Ruth van der Berg', gender: 'Female' }],
      ['okaforJames', { number: 'MRN-0002', name: 'James Okafor', gender: 'Male' }],
      ['unnamed', { number: 'XQZ-9' }],
    ] as const) {
      const response = await call(nurse, 'POST', '/api/patients', body);
      expect(response.statusCode, response.body).toBe(201);
      patients[key] = response.json<Patient>();
    }
    // Fixed codes, so that no generated code happens to hold a searched text.
    let codes = 0;
    const add = async (key: string, patient: string | null, gender: 'Male' | 'Female') => {
      t.advance(60_000);
      const response = await call(nurse, 'POST', '/api/assessments', {
        ...demographics(gender),
        code: `ASS-${++codes}-TEST`,
        ...(patient === null ? {} : { patientId: patients[patient]?.id }),
      });
      expect(response.statusCode, response.body).toBe(201);
      assessments[key] = response.json<Assessment>();
    };
    await add('amina1', 'amina', 'Female');
    await add('ruth1', 'ruth', 'Female');
    await add('anonymous', null, 'Male');
    await add('james1', 'okaforJames', 'Male');
    await add('amina2', 'amina', 'Female');
    await add('unnamed1', 'unnamed', 'Male');
    await add('aminaDeleted', 'amina', 'Female');
    const removed = await call(
      nurse,
      'DELETE',
      `/api/assessments/${assessments.aminaDeleted?.id ?? ''}`,
      undefined,
      { 'if-match': '"1"' },
    );
    expect(removed.statusCode).toBe(204);
  });
  afterAll(async () => {
    await t.close();
  });

  const search = async (q: string, extra = '') => {
    const response = await call(
      nurse,
      'GET',
      `/api/assessments?q=${encodeURIComponent(q)}${extra}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json<AssessmentList>();
  };
  const found = async (q: string) => {
    const list = await search(q);
    const names = list.items.map(
      (item) => Object.entries(assessments).find(([, a]) => a.id === item.id)?.[0],
    );
    expect(list.total).toBe(names.length);
    return names;
  };

  it.each([
    ['okafor', ['amina2', 'james1', 'amina1']],
    ['OKAFOR', ['amina2', 'james1', 'amina1']],
    ['Amina', ['amina2', 'amina1']],
    ['ami', ['amina2', 'amina1']],
    ['oka', ['amina2', 'james1', 'amina1']],
    ['van', ['ruth1']],
    ['der', ['ruth1']],
    ['mrn-0001', ['amina2', 'amina1']],
    ['MRN', ['amina2', 'james1', 'amina1']],
    ['p/77-b', ['ruth1']],
    ['xqz', ['unnamed1']],
  ])(
    'finds %s at the start of a word of the patient number or name, in any case',
    async (q, expected) => {
      expect(await found(q)).toEqual(expected);
    },
  );

  it.each(['afor', 'mina', 'erg', '0001x', 'amina-okafor-x'])(
    'does not find %s, which starts no word of a patient',
    async (q) => {
      expect(await found(q)).toEqual([]);
    },
  );

  it('finds short words and words with % or _ by the patient record too', async () => {
    // Under three characters, and with a LIKE wildcard, the search text is read row by row.
    expect(await found('ok')).toEqual(['amina2', 'james1', 'amina1']);
    expect(await found('ru')).toEqual(['ruth1']);
    expect(await found('mrn_0002')).toEqual(['james1']);
    expect(await found('%')).toEqual([]);
  });

  it('needs every term to match, each in the search text or the patient record', async () => {
    expect(await found('amina okafor')).toEqual(['amina2', 'amina1']);
    expect(await found('okafor male')).toEqual(['james1']);
    expect(await found('amina ruth')).toEqual([]);
    expect(await found(`okafor ${assessments.amina1?.code ?? ''}`)).toEqual(['amina1']);
    expect(await found(`ruth ${assessments.ruth1?.id.slice(-8) ?? ''}`)).toEqual(['ruth1']);
    expect(await found('okafor not signed off')).toEqual(['amina2', 'james1', 'amina1']);
  });

  it('still finds assessments by their own code and id', async () => {
    expect(await found(assessments.anonymous?.code ?? '')).toEqual(['anonymous']);
    expect(await found(assessments.james1?.id.slice(-12) ?? '')).toEqual(['james1']);
  });

  it('pages the matches of a patient with the cursor, counting them all', async () => {
    const first = await search('okafor', '&limit=2');
    expect(first.items.map((item) => item.id)).toEqual([
      assessments.amina2?.id,
      assessments.james1?.id,
    ]);
    expect(first.total).toBe(3);
    const second = await search('okafor', `&limit=2&cursor=${first.nextCursor ?? ''}`);
    expect(second.items.map((item) => item.id)).toEqual([assessments.amina1?.id]);
    expect(second.items[0]?.patientNumber).toBe('MRN-0001');
  });

  it('follows a change of name or number at once', async () => {
    const ruth = patients.ruth;
    const response = await call(
      nurse,
      'PUT',
      `/api/patients/${ruth?.id ?? ''}`,
      { number: 'P/78-C', name: 'Ruth Mokoena' },
      { 'if-match': `"${ruth?.version ?? 0}"` },
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(await found('berg')).toEqual([]);
    expect(await found('p/77-b')).toEqual([]);
    expect(await found('mokoena')).toEqual(['ruth1']);
    expect(await found('p/78-c')).toEqual(['ruth1']);
  });

  it("finds a deleted patient record's assessments, which still name it", async () => {
    const unnamed = patients.unnamed;
    const response = await call(admin, 'DELETE', `/api/patients/${unnamed?.id ?? ''}`, undefined, {
      'if-match': `"${unnamed?.version ?? 0}"`,
    });
    expect(response.statusCode, response.body).toBe(204);
    expect(await found('xqz-9')).toEqual(['unnamed1']);
  });

  it('narrows the bulk exports by the patient too', async () => {
    const doctor = await signedInAs(t, 'doctor');
    const csv = await call(doctor, 'GET', '/api/exports/assessments.csv?q=okafor');
    expect(csv.statusCode).toBe(200);
    const ids = csv.body
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(',')[0]);
    expect(ids).toEqual([assessments.amina2?.id, assessments.james1?.id, assessments.amina1?.id]);
  });
});
