import crypto from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assessment } from '../../shared/api/assessments.ts';
import type { CdsResponse } from '../../shared/api/cds-hooks.ts';
import type { OrgUnit } from '../../shared/api/org-units.ts';
import { orgUnitsRepository } from '../db/repositories/org-units.ts';
import { createApiToken } from '../services/api-tokens.ts';
import { addCdsClient } from '../services/cds-clients.ts';
import { addFhirClient } from '../services/fhir-clients.ts';
import { closeOrgUnit, createOrgUnit } from '../services/org-units.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import {
  makeSigningKey,
  searchset,
  signCall,
  type SigningKey,
} from '../testing/cds-record-system.ts';
import { testDatabases } from '../testing/databases.ts';
import { requestsAs } from '../testing/requests.ts';
import { highRiskBody } from '../testing/risk-bodies.ts';
import { signedInAs } from '../testing/users.ts';

const publicUrl = 'https://triage.example';

const loinc = (code: string) => ({ coding: [{ system: 'http://loinc.org', code }] });

/** A measurement of the record system's Patient p1. */
const measured = (code: string, value: number, unit: string) => ({
  resourceType: 'Observation',
  status: 'final',
  code: loinc(code),
  subject: { reference: 'Patient/p1' },
  effectiveDateTime: '2026-10-01',
  valueQuantity: { value, unit, system: 'http://unitsofmeasure.org', code: unit },
});
const operator = { user: null, address: 'command line' };

interface Facility {
  unit: OrgUnit;
  patientId: string;
  patientNumber: string;
  assessment: Assessment;
}

/** Who reads, as the request's headers say. */
type Caller = Record<string, string>;

interface SearchsetJson {
  total: number;
  entry?: Array<{ resource: { resourceType: string; id: string } }>;
  link: Array<{ relation: string; url: string }>;
}

/**
 * Organisation-unit scope (issue 36) for other systems and for exports: two sibling facilities
 * A and B under a district. What is registered for A (an API token, a FHIR client, a CDS
 * client) and a user of A reach none of B's records; what is registered for the district reaches
 * both.
 */
describe.each(testDatabases())(
  'the scope of tokens, clients and exports on $engine',
  (testDatabase) => {
    let t: TestApp;
    let district: OrgUnit;
    let a: Facility;
    let b: Facility;
    let mainId: string;
    const callers: Record<string, Caller> = {};
    let cdsKey: SigningKey;

    const get = (url: string, headers: Caller) => t.app.inject({ method: 'GET', url, headers });

    /** A FHIR client registered for the unit, and an access token it obtained. */
    async function fhirClientToken(unit: string): Promise<string> {
      const key = await makeSigningKey('ES384', `k-${unit}`);
      const clientId = `warehouse-${unit}`;
      await addFhirClient(t.context, operator, {
        clientId,
        jwks: { keys: [key.publicJwk] },
        scope: 'system/*.rs',
        unit,
      });
      const now = Math.floor(t.context.now().getTime() / 1000);
      const assertion = await new SignJWT({})
        .setProtectedHeader({ alg: 'ES384', kid: `k-${unit}` })
        .setIssuer(clientId)
        .setSubject(clientId)
        .setAudience(`${publicUrl}/api/oauth/token`)
        .setExpirationTime(now + 60)
        .setJti(crypto.randomUUID())
        .sign(key.privateKey);
      const issued = await t.app.inject({
        method: 'POST',
        url: '/api/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          grant_type: 'client_credentials',
          client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
          client_assertion: assertion,
          scope: 'system/*.rs',
        }).toString(),
      });
      expect(issued.statusCode, issued.body).toBe(200);
      return issued.json<{ access_token: string }>().access_token;
    }

    beforeAll(async () => {
      t = await openTestApp(testDatabase, { PUBLIC_URL: publicUrl });
      const main = await orgUnitsRepository.findMain(t.database.db);
      mainId = main?.id ?? '';
      district = await createOrgUnit(t.context, operator, {
        code: 'D1',
        name: 'District one',
        parentId: mainId,
      });
      const facility = async (code: string): Promise<Facility> => {
        const unit = await createOrgUnit(t.context, operator, {
          code,
          name: `Facility ${code}`,
          parentId: district.id,
        });
        const nurse = await signedInAs(t, 'nurse', undefined, undefined, [unit.id]);
        const patientNumber = `MRN-${code}`;
        const saved = await requestsAs(t)(nurse, 'POST', '/api/assessments', {
          ...highRiskBody,
          newPatient: { number: patientNumber, name: `Patient of ${code}` },
        });
        expect(saved.statusCode, saved.body).toBe(201);
        const assessment = saved.json<Assessment>();
        return { unit, patientId: assessment.patient?.id ?? '', patientNumber, assessment };
      };
      a = await facility('FAC-A');
      b = await facility('FAC-B');

      const doctorOf = async (unit: OrgUnit) => ({
        cookie: (await signedInAs(t, 'doctor', undefined, undefined, [unit.id])).cookie,
      });
      callers['user of A'] = await doctorOf(a.unit);
      callers['user of the district'] = await doctorOf(district);
      const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
      callers['API token of A'] = bearer(
        (await createApiToken(t.context, operator, 'his-a', 'fac-a')).token,
      );
      callers['API token of the district'] = bearer(
        (await createApiToken(t.context, operator, 'his-d', 'D1')).token,
      );
      callers['FHIR client of A'] = bearer(await fhirClientToken('FAC-A'));
      callers['FHIR client of the district'] = bearer(await fhirClientToken('D1'));

      cdsKey = await makeSigningKey('ES384', 'cds-a');
      await addCdsClient(t.context, operator, {
        issuer: 'https://ehr-a.example',
        jwks: { keys: [cdsKey.publicJwk] },
        unit: 'FAC-A',
      });
      await addCdsClient(t.context, operator, {
        issuer: 'https://ehr-district.example',
        jwks: { keys: [cdsKey.publicJwk] },
        unit: 'D1',
      });
    });
    afterAll(async () => {
      await t.close();
    });

    const ofA = ['user of A', 'API token of A', 'FHIR client of A'];
    const ofDistrict = [
      'user of the district',
      'API token of the district',
      'FHIR client of the district',
    ];

    it('reads by id only within the scope: 404 as if it did not exist outside it', async () => {
      const reads = (facility: Facility) => [
        `/fhir/Patient/${facility.patientId}`,
        `/fhir/RiskAssessment/${facility.assessment.id}.DM2`,
        `/fhir/Observation/${facility.assessment.id}.age`,
        `/fhir/Organization/${facility.unit.id}`,
      ];
      for (const name of ofA) {
        for (const url of reads(a)) {
          expect((await get(url, callers[name] ?? {})).statusCode, `${name} ${url}`).toBe(200);
        }
        for (const url of [
          ...reads(b),
          `/fhir/Organization/${district.id}`,
          `/fhir/Organization/${mainId}`,
        ]) {
          const response = await get(url, callers[name] ?? {});
          expect(response.statusCode, `${name} ${url}`).toBe(404);
          expect(response.json()).toMatchObject({
            resourceType: 'OperationOutcome',
            issue: [{ code: 'not-found' }],
          });
        }
      }
      for (const name of ofDistrict) {
        for (const url of [...reads(a), ...reads(b), `/fhir/Organization/${district.id}`]) {
          expect((await get(url, callers[name] ?? {})).statusCode, `${name} ${url}`).toBe(200);
        }
        expect((await get(`/fhir/Organization/${mainId}`, callers[name] ?? {})).statusCode).toBe(
          404,
        );
      }
    });

    it('searches and counts only within the scope', async () => {
      const search = async (name: string, url: string) => {
        const response = await get(url, callers[name] ?? {});
        expect(response.statusCode, `${name} ${url}: ${response.body}`).toBe(200);
        return response.json<SearchsetJson>();
      };
      const risks = (facility: Facility) =>
        `/fhir/RiskAssessment?subject=Patient/${facility.patientId}`;
      const byNumber = (facility: Facility) => `/fhir/Patient?identifier=${facility.patientNumber}`;
      for (const name of ofA) {
        expect((await search(name, risks(a))).total, name).toBe(6);
        expect(await search(name, risks(b)), name).toMatchObject({ total: 0 });
        expect((await search(name, risks(b))).entry, name).toBeUndefined();
        expect((await search(name, `${risks(b)}&_summary=count`)).total, name).toBe(0);
        expect((await search(name, `${risks(a)}&_summary=count`)).total, name).toBe(6);
        expect((await search(name, byNumber(a))).total, name).toBe(1);
        expect((await search(name, byNumber(b))).total, name).toBe(0);
        // The assessment's own Patient id form is narrowed too.
        expect(
          (await search(name, `/fhir/RiskAssessment?subject=Patient/${b.assessment.id}.patient`))
            .total,
        ).toBe(0);
      }
      for (const name of ofDistrict) {
        expect((await search(name, risks(b))).total, name).toBe(6);
        expect((await search(name, byNumber(b))).total, name).toBe(1);
      }
    });

    it('narrows a search by unit, in the query or a form, and says so in its links', async () => {
      const district = callers['API token of the district'] ?? {};
      const narrowed = await get(
        `/fhir/RiskAssessment?subject=Patient/${a.patientId}&unit=${b.unit.id}&_count=2`,
        { ...district, prefer: 'handling=strict' },
      );
      expect(narrowed.statusCode, narrowed.body).toBe(200);
      expect(narrowed.json<SearchsetJson>().total).toBe(0);
      const withUnit = await get(
        `/fhir/RiskAssessment?subject=Patient/${a.patientId}&unit=${a.unit.id}&_count=2`,
        { ...district, prefer: 'handling=strict' },
      );
      const bundle = withUnit.json<SearchsetJson>();
      expect(bundle.total).toBe(6);
      for (const relation of ['self', 'next']) {
        const link = bundle.link.find((l) => l.relation === relation)?.url ?? '';
        expect(new URL(link).searchParams.get('unit'), relation).toBe(a.unit.id);
      }
      // Without it, the links do not name one.
      const plain = await get(`/fhir/Patient?identifier=${a.patientNumber}`, district);
      expect(plain.json<SearchsetJson>().link[0]?.url).toBe(
        `${publicUrl}/fhir/Patient?identifier=${a.patientNumber}`,
      );

      // In a POST _search form, which the guard does not read.
      const form = await t.app.inject({
        method: 'POST',
        url: '/fhir/Patient/_search',
        headers: { ...district, 'content-type': 'application/x-www-form-urlencoded' },
        payload: `identifier=${a.patientNumber}&unit=${b.unit.id}`,
      });
      expect(form.statusCode, form.body).toBe(200);
      expect(form.json<SearchsetJson>().total).toBe(0);

      // A unit outside the scope is no unit at all.
      for (const headers of [callers['API token of A'] ?? {}, callers['FHIR client of A'] ?? {}]) {
        const outside = await get(
          `/fhir/RiskAssessment?subject=Patient/${a.patientId}&unit=${b.unit.id}`,
          headers,
        );
        expect(outside.statusCode).toBe(404);
        const formOutside = await t.app.inject({
          method: 'POST',
          url: '/fhir/Patient/_search',
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          payload: `identifier=${a.patientNumber}&unit=${b.unit.id}`,
        });
        expect(formOutside.statusCode).toBe(404);
      }
    });

    it('exports only the records of the scope: CSV, text report, NDJSON and one assessment', async () => {
      const user = callers['user of A'] ?? {};
      const districtUser = callers['user of the district'] ?? {};
      const csv = await get('/api/exports/assessments.csv', user);
      expect(csv.statusCode).toBe(200);
      expect(csv.body).toContain(a.assessment.id);
      expect(csv.body).not.toContain(b.assessment.id);
      expect(csv.body.trim().split('\r\n')).toHaveLength(2);

      const text = await get('/api/exports/assessments.txt', user);
      expect(text.statusCode).toBe(200);
      expect(text.body).toContain('Total assessments: 1');
      expect(text.body).toContain(a.assessment.id);
      expect(text.body).not.toContain(b.assessment.id);

      const ndjson = await get('/api/exports/fhir.ndjson', user);
      expect(ndjson.statusCode).toBe(200);
      const resources = ndjson.body
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { resourceType: string; id: string });
      expect(ndjson.body).not.toContain(b.assessment.id);
      expect(ndjson.body).not.toContain(b.patientId);
      expect(resources.filter((r) => r.resourceType === 'Patient').map((r) => r.id)).toEqual([
        a.patientId,
      ]);
      // Only the Organizations of the scope: A, not the district above it, nor B.
      expect(resources.filter((r) => r.resourceType === 'Organization').map((r) => r.id)).toEqual([
        a.unit.id,
      ]);

      for (const url of [
        `/api/assessments/${b.assessment.id}/report.txt`,
        `/api/assessments/${b.assessment.id}/report`,
        `/api/assessments/${b.assessment.id}/fhir`,
      ]) {
        expect((await get(url, user)).statusCode, url).toBe(404);
        expect((await get(url, districtUser)).statusCode, url).toBe(200);
      }
      const bundle = await get(`/api/assessments/${a.assessment.id}/fhir`, user);
      expect(bundle.statusCode).toBe(200);
      const organizations = bundle
        .json<{ entry: Array<{ resource: { resourceType: string; id: string } }> }>()
        .entry.filter((e) => e.resource.resourceType === 'Organization')
        .map((e) => e.resource.id);
      expect(organizations).toEqual([a.unit.id]);

      // The district's user exports both, or one unit of them with ?unit=.
      const both = await get('/api/exports/assessments.csv', districtUser);
      expect(both.body).toContain(a.assessment.id);
      expect(both.body).toContain(b.assessment.id);
      const onlyB = await get(`/api/exports/assessments.csv?unit=${b.unit.id}`, districtUser);
      expect(onlyB.statusCode).toBe(200);
      expect(onlyB.body).toContain(b.assessment.id);
      expect(onlyB.body).not.toContain(a.assessment.id);
      const districtNdjson = await get('/api/exports/fhir.ndjson', districtUser);
      expect(districtNdjson.body).toContain(b.assessment.id);
      expect(districtNdjson.body).toContain(`"id":"${district.id}"`);
      // A unit outside the user's scope is no unit at all.
      expect((await get(`/api/exports/assessments.csv?unit=${b.unit.id}`, user)).statusCode).toBe(
        404,
      );
    });

    it("links a CDS client's cards only to records of its unit, and makes new ones there", async () => {
      const call = async (number: string, issuer = 'https://ehr-a.example') => {
        const now = Math.floor(t.context.now().getTime() / 1000);
        const jwt = await signCall(cdsKey, {
          issuer,
          audience: `${publicUrl}/cds-services/chronic-disease-risk`,
          now,
        });
        const response = await t.app.inject({
          method: 'POST',
          url: '/cds-services/chronic-disease-risk',
          headers: { authorization: `Bearer ${jwt}` },
          payload: {
            hook: 'patient-view',
            hookInstance: crypto.randomUUID(),
            context: { patientId: 'p1' },
            prefetch: {
              patient: {
                resourceType: 'Patient',
                id: 'p1',
                identifier: [{ system: t.context.config.patientIdSystem, value: number }],
                gender: 'male',
                birthDate: '1960-05-01',
              },
              observations: searchset([
                measured('8302-2', 1.75, 'm'),
                measured('29463-7', 95, 'kg'),
                {
                  resourceType: 'Observation',
                  status: 'final',
                  code: loinc('72166-2'),
                  subject: { reference: 'Patient/p1' },
                  effectiveDateTime: '2026-10-01',
                  valueCodeableConcept: {
                    coding: [{ system: 'http://snomed.info/sct', code: '77176002' }],
                  },
                },
              ]),
              conditions: null,
              familyHistory: searchset([
                {
                  resourceType: 'FamilyMemberHistory',
                  status: 'completed',
                  patient: { reference: 'Patient/p1' },
                  relationship: { coding: [{ code: 'FTH' }] },
                  condition: [
                    { code: { coding: [{ system: 'http://snomed.info/sct', code: '44054006' }] } },
                  ],
                },
              ]),
            },
          },
        });
        expect(response.statusCode, response.body).toBe(200);
        const cards = response.json<CdsResponse>().cards;
        expect(cards.length).toBeGreaterThan(0);
        const links = cards.flatMap((card) => card.links ?? []).map((link) => link.url);
        return new Set(links.map((url) => new URL(url).searchParams.get('patient')));
      };
      const records = () =>
        t.database.db
          .selectFrom('patient_records')
          .select(['id', 'number', 'org_unit_id'])
          .execute();
      const before = await records();

      expect(await call(a.patientNumber)).toEqual(new Set([a.patientId]));
      expect(await records()).toEqual(before);
      // B's number names no patient of A (numbers are unique within a unit): never B's record,
      // but a record of A's own, made as for any new number.
      const bNumberAtA = await call(b.patientNumber);
      expect(bNumberAtA.has(b.patientId)).toBe(false);
      const madeAtA = (await records()).filter((row) => row.number === b.patientNumber);
      expect(madeAtA.map((row) => row.org_unit_id).sort()).toEqual([a.unit.id, b.unit.id].sort());
      expect(bNumberAtA).toEqual(
        new Set(madeAtA.filter((row) => row.org_unit_id === a.unit.id).map((row) => row.id)),
      );
      // The district's client links each number to the one record its scope holds.
      const district = 'https://ehr-district.example';
      // B's number is now held by a record of A and one of B: the district's client links neither.
      expect(await call(b.patientNumber, district)).toEqual(new Set());
      expect(await call(a.patientNumber, district)).toEqual(new Set([a.patientId]));

      // A new patient is made in the client's unit.
      const made = await call('MRN-NEW');
      const created = (await records()).find((row) => row.number === 'MRN-NEW');
      expect(created?.org_unit_id).toBe(a.unit.id);
      expect(made).toEqual(new Set([created?.id]));

      // While its unit is closed, none is made.
      await closeOrgUnit(t.context, operator, a.unit.id, undefined);
      expect(await call('MRN-NEWER')).toEqual(new Set());
      expect((await records()).find((row) => row.number === 'MRN-NEWER')).toBeUndefined();
    });
  },
);
