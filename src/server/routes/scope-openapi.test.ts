import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Assessment } from '../../shared/api/assessments.ts';
import type { Patient } from '../../shared/api/patients.ts';
import type { User } from '../../shared/api/users.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { bulkRequests } from '../testing/fhir-bulk.ts';
import { testDatabases } from '../testing/databases.ts';
import { requestsAs, type Requests } from '../testing/requests.ts';
import { highRiskBody } from '../testing/risk-bodies.ts';
import { siblingFacilities, type SiblingFacilities } from '../testing/sibling-facilities.ts';
import { testPassword } from '../testing/users.ts';

interface OpenApiDocument {
  paths: Record<string, { get?: { parameters?: { name: string; in: string }[] } }>;
}

interface FhirBundle {
  entry?: { resource: { resourceType: string; id: string } }[];
}

/**
 * One mechanism, checked from the outside (issue 36): every GET operation of the OpenAPI
 * document, asked by users of facility A, answers nothing of the sibling facility B: no id,
 * number, name, code or note of it, whatever the operation and whatever the answer's status.
 */
describe.each(testDatabases())('every GET of the API on $engine', (testDatabase) => {
  let t: TestApp;
  let call: Requests;
  let f: SiblingFacilities;

  beforeEach(async () => {
    t = await openTestApp(testDatabase);
    call = requestsAs(t);
    f = await siblingFacilities(t, { a: 'Alder Clinic', b: 'Birchwood Clinic' });
  });
  afterEach(async () => {
    await t.close();
  });

  /** The resources of one assessment's FHIR Bundle, by type: the ids the FHIR API serves. */
  const fhirIds = async (who: { cookie: string }, assessmentId: string) => {
    const bundle = await call(who, 'GET', `/api/assessments/${assessmentId}/fhir`);
    expect(bundle.statusCode, bundle.body).toBe(200);
    const ids = new Map<string, string[]>();
    for (const { resource } of bundle.json<FhirBundle>().entry ?? []) {
      ids.set(resource.resourceType, [...(ids.get(resource.resourceType) ?? []), resource.id]);
    }
    return ids;
  };

  it("finds nothing of the sibling facility in any answer to facility A's users", async () => {
    const { a, b, topAdmin } = f;
    // B also has a patient whose number no one at A uses, with a reviewed assessment.
    const onlyAtB = await call(b.nurse, 'POST', '/api/patients', {
      number: 'BW-55501',
      name: 'Quillon Marsh',
    });
    expect(onlyAtB.statusCode, onlyAtB.body).toBe(201);
    const bPatient = onlyAtB.json<Patient>();
    const bSaved = await call(b.nurse, 'POST', '/api/assessments', {
      ...highRiskBody,
      patientId: bPatient.id,
      notes: 'Birchwood follow-up note',
    });
    expect(bSaved.statusCode, bSaved.body).toBe(201);
    const bAssessment = bSaved.json<Assessment>();
    const reviewed = await call(
      b.doctor,
      'POST',
      `/api/assessments/${b.assessment.id}/review/lock`,
      {
        reviews: [{ condition: 'DM2', agreed: false, comments: 'Birchwood doctor comment' }],
      },
    );
    expect(reviewed.statusCode, reviewed.body).toBe(200);

    const facilityAdminMade = await call(topAdmin, 'POST', '/api/users', {
      username: 'admin-of-alder',
      role: 'admin',
      password: testPassword,
      units: [a.unit.id],
    });
    expect(facilityAdminMade.statusCode, facilityAdminMade.body).toBe(201);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username: 'admin-of-alder', password: testPassword },
    });
    const adminCookie = signIn.cookies.find((c) => c.name === 'triage_session');
    if (adminCookie === undefined) throw new Error('No session');
    const facilityAdmin = { cookie: `triage_session=${adminCookie.value}` };

    const bUsers = (await call(topAdmin, 'GET', '/api/users'))
      .json<{ items: User[] }>()
      .items.filter((user) => user.units.some((unit) => unit.id === b.unit.id));
    // The units above both facilities (the district, MAIN) are A's too: not B's own.
    const aFhir = await fhirIds(topAdmin, a.assessment.id);
    const shared = new Set([...aFhir.values()].flat());
    const bFhir = [
      ...(await fhirIds(topAdmin, b.assessment.id)).values(),
      ...(await fhirIds(topAdmin, bAssessment.id)).values(),
    ]
      .flat()
      .filter((id) => !shared.has(id));
    const secrets = [
      b.unit.id,
      b.unit.code,
      b.unit.name,
      b.patient.id,
      b.patient.name ?? '',
      b.assessment.id,
      b.assessment.code ?? '',
      bPatient.id,
      bPatient.number,
      'Quillon',
      bAssessment.id,
      bAssessment.code ?? '',
      'Birchwood',
      ...bUsers.flatMap((user) => [user.id, user.username]),
      ...bFhir,
    ].filter((secret) => secret !== '');
    expect(secrets.length).toBeGreaterThan(15);

    // An export of all A's doctor may read, run to its end: its status and files are GETs too.
    const bulk = bulkRequests(t);
    const kickOff = await bulk.kickOff(a.doctor, '/fhir/$export');
    expect(kickOff.statusCode, kickOff.body).toBe(202);
    const location = String(kickOff.headers['content-location']);
    const { manifest } = await bulk.manifestOf(a.doctor, location);
    const jobId = location.split('/').at(-1) ?? '';
    const file = manifest.output[0]?.url.split('/').at(-1) ?? '';
    expect(file).not.toBe('');
    // One of B's own, which A's users must not reach either.
    const bKickOff = await bulk.kickOff(b.doctor, '/fhir/$export');
    const bJob = String(bKickOff.headers['content-location']).split('/').at(-1) ?? '';
    await bulk.manifestOf(b.doctor, String(bKickOff.headers['content-location']));
    const pathValue = (path: string, name: string): string => {
      if (name === 'version') return 'v1';
      if (name === 'jobId') return jobId;
      if (name === 'file') return file;
      if (path === '/fhir/Group/{id}/$export') return a.unit.id;
      if (path.startsWith('/api/org-units/')) return a.unit.id;
      if (path.startsWith('/api/patients/')) return a.patient.id;
      if (path.startsWith('/api/assessments/')) return a.assessment.id;
      // A launch is reached only by the browser that began it and the user who took it up
      // (smart-launch.test.ts); none is set up here, so it is not found.
      if (path.startsWith('/api/smart/launches/')) return 'no-launch';
      if (path === '/fhir/Patient/{id}') return a.patient.id;
      if (path === '/fhir/Organization/{id}') return a.unit.id;
      const type = /^\/fhir\/([A-Za-z]+)\/\{id\}$/.exec(path)?.[1];
      const id = type === undefined ? undefined : aFhir.get(type)?.[0];
      if (id === undefined) throw new Error(`No value for ${name} in ${path}`);
      return id;
    };
    const document = (
      await t.app.inject({ method: 'GET', url: '/api/openapi.json' })
    ).json<OpenApiDocument>();
    const urls = Object.entries(document.paths).flatMap(([path, operations]) => {
      if (operations.get === undefined) return [];
      const url = path.replace(/\{([^}]+)\}/g, (_, name: string) => pathValue(path, name));
      // As asked, and with the searches a user of A might type (the other's words included).
      const names = new Set((operations.get.parameters ?? []).map((p) => p.name));
      return [
        url,
        ...(path.includes('{jobId}') ? [url.replace(jobId, bJob)] : []),
        ...(names.has('q') ? [`${url}?q=Quillon`, `${url}?q=BW-55501`, `${url}?q=P-100`] : []),
        ...(names.has('patient') ? [`${url}?patient=${a.patient.id}`] : []),
      ];
    });
    expect(urls.length).toBeGreaterThan(40);

    let answered = 0;
    for (const who of [a.nurse, a.doctor, facilityAdmin]) {
      for (const url of urls) {
        const response = await call(who, 'GET', url);
        if (response.statusCode === 200) answered += 1;
        // What the caller typed may come back to them (a report names its search): not a leak.
        const typed = new URL(url, 'http://x').searchParams.get('q') ?? '';
        const leaked = secrets.filter(
          (secret) => response.body.includes(secret) && !(typed !== '' && secret.includes(typed)),
        );
        expect(leaked, `GET ${url} (${response.statusCode})`).toEqual([]);
      }
    }
    // Most operations answered with content, so the check above read real answers.
    expect(answered).toBeGreaterThan(60);
  });
});
