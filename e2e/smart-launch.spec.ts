import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { makeSigningKey, signCall } from '../src/server/testing/cds-record-system.ts';
import {
  startStandInRecordSystem,
  type StandInRecordSystem,
} from '../src/server/testing/stand-in-record-system.ts';
import { answer, stepButton } from './assessment-fixtures.ts';
import { adminPassword, adminUsername, signIn } from './fixtures.ts';
import { freePort, startOwnServer, type OwnServer } from './own-server.ts';
import { expect, test } from './page-checks.ts';

const clientId = 'triage-app';
const gateTitle = { name: 'Secure Access Required' };

/**
 * The product launched from a record system as a SMART app (issue 39): a stand-in record system in
 * the test's process (a SMART authorization server that checks PKCE, and a FHIR server holding a
 * patient), and a server of the test's own that it may launch.
 */
test.describe('launching from the record system', () => {
  let ehr: StandInRecordSystem;
  let server: OwnServer;

  test.beforeAll(async () => {
    const port = await freePort();
    const appUrl = `http://127.0.0.1:${port}`;
    ehr = await startStandInRecordSystem({
      clientId,
      redirectUris: [`${appUrl}/smart/callback`],
    });
    server = await startOwnServer({
      PORT: String(port),
      PUBLIC_URL: appUrl,
      SMART_CLIENT_ID: clientId,
      SMART_ISSUERS: ehr.issuer,
      SMART_WRITE_BACK: 'true',
      MFA_REQUIRED_ROLES: '',
    });
  });
  test.afterAll(async () => {
    await server.stop();
    await ehr.close();
  });
  test.beforeEach(() => {
    ehr.denyScopes([]);
    ehr.failResource('RiskAssessment', undefined);
  });

  const launchUrl = (iss = ehr.issuer) =>
    `${server.url}/smart/launch?iss=${encodeURIComponent(iss)}&launch=${ehr.newLaunch({ patientId: 'smart-pat-1' })}`;

  async function signInAtTheGate(page: Page) {
    await expect(page.getByRole('heading', gateTitle)).toBeVisible();
    await signIn(page, adminUsername, adminPassword);
  }

  test('a launch without a session goes through the gate, fills the wizard from the record, and the result goes back once', async ({
    page,
  }) => {
    await page.goto(launchUrl());
    // The record system's authorization server sent the browser back; the gate shows first.
    await expect(page.getByRole('heading', gateTitle)).toBeVisible();
    const opened = new URL(page.url());
    expect(opened.pathname).toBe('/assessments/new');
    const launchId = opened.searchParams.get('launch') ?? '';
    await signInAtTheGate(page);

    // Step 1 from the record, each value with where it came from.
    await expect(page.getByRole('textbox', { name: 'Age' })).toHaveValue('58');
    await expect(page.getByRole('textbox', { name: 'Height (cm)' })).toHaveValue('162');
    await expect(page.getByRole('textbox', { name: 'Weight (kg)' })).toHaveValue('88');
    await expect(page.getByText('from the record, 2 Oct 2026').first()).toBeVisible();
    await page.screenshot({ path: 'test-results/smart-launch-step-1.png', fullPage: true });

    await page.getByRole('button', { name: 'Continue to Risk Factors' }).click();
    await expect(
      page
        .getByRole('radiogroup', { name: 'Family history of Type 2 Diabetes', exact: true })
        .getByRole('radio', { name: 'Yes', exact: true }),
    ).toBeChecked();
    // The smoking status of 2019 is older than a year: shown, not filled.
    await expect(
      page.getByText(/In the record: .*1 Mar 2019 \(too old to fill in\)/),
    ).toBeVisible();

    // The nurse answers only the symptoms.
    await page.getByRole('button', { name: 'Continue to Symptoms' }).click();
    await answer(page, 'Fatigue', 'Yes');
    await answer(page, 'Fatigue severity', 'Moderate');
    await answer(page, 'Increased Thirst', 'Yes');
    await answer(page, 'Increased Thirst severity', 'Severe');
    await page.getByRole('button', { name: 'Continue to Management' }).click();
    await expect(
      page
        .getByRole('radiogroup', { name: 'Is the patient diagnosed with Hypertension?' })
        .getByRole('radio', { name: 'Yes', exact: true }),
    ).toBeChecked();
    await page.getByRole('button', { name: 'Calculate Results' }).click();

    // The record system fails the first write-back: said, and tried again by the nurse.
    ehr.failResource('RiskAssessment', 503);
    await page.getByRole('button', { name: 'Save Assessment' }).click();
    const failed = page.getByRole('alert').filter({ hasText: 'Not sent to the record' });
    await expect(failed).toBeVisible();
    ehr.failResource('RiskAssessment', undefined);
    const before = ehr.riskAssessments().length;
    await failed.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByText('Sent to the record.')).toBeVisible();
    await page.screenshot({ path: 'test-results/smart-launch-saved.png', fullPage: true });
    expect(ehr.riskAssessments().length - before).toBe(6);
    // Sent again (a retry after a lost answer): the record already holds them, no second copy.
    const assessmentId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
    const again = await page.request.post(
      `${server.url}/api/smart/launches/${launchId}/write-back`,
      {
        data: { assessmentId },
        headers: { origin: server.url },
      },
    );
    expect(await again.json()).toMatchObject({ created: 0, alreadyThere: 6 });
    expect(ehr.riskAssessments().length - before).toBe(6);
    expect(ehr.tokenRequests.every((request) => request.pkceVerified)).toBe(true);
  });

  test('a launch from an issuer not allowed is refused with a sentence', async ({ page }) => {
    await page.goto(launchUrl('https://elsewhere.example/fhir'));
    await expect(page.getByRole('heading', { name: 'Cannot open from the record' })).toBeVisible();
    await expect(
      page.getByText(
        'The record system https://elsewhere.example/fhir is not allowed to open this app.',
      ),
    ).toBeVisible();
  });

  test('a scope the record system does not grant is said on the page, and its fields left to the nurse', async ({
    page,
  }) => {
    ehr.denyScopes(['patient/Condition.rs']);
    await page.goto(launchUrl());
    await signInAtTheGate(page);
    const unread = page.getByRole('alert').filter({ hasText: 'Not read from the record' });
    await expect(unread).toContainText('Condition: Not granted by the record system.');
    await expect(unread).toContainText('Fill these in by hand.');
    await expect(page.getByRole('textbox', { name: 'Age' })).toHaveValue('58');
    await stepButton(page, 'Management').click();
    await expect(
      page
        .getByRole('radiogroup', { name: 'Is the patient diagnosed with Hypertension?' })
        .getByRole('radio', { name: 'Yes', exact: true }),
    ).not.toBeChecked();
  });

  test("the CDS card's smart link starts the launch for the patient", async ({ page }) => {
    // The record system registered as a CDS client beside the server (the `triage` command).
    const key = await makeSigningKey('ES384', 'card-key');
    const jwksFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'smart-card-')), 'jwks.json');
    fs.writeFileSync(jwksFile, JSON.stringify({ keys: [key.publicJwk] }));
    const cdsIssuer = 'https://ehr-cds.clinic.example';
    execFileSync(
      process.execPath,
      ['src/cli/main.ts', 'cds-client', 'add', '--issuer', cdsIssuer, '--jwks-file', jwksFile],
      { env: { ...process.env, DATA_DIR: server.dataDir, LOG_LEVEL: 'warn' } },
    );
    const jwt = await signCall(key, {
      issuer: cdsIssuer,
      audience: `${server.url}/cds-services/chronic-disease-risk`,
      now: Math.floor(Date.now() / 1000),
    });
    const subject = { reference: 'Patient/smart-pat-1' };
    const call = await page.request.post(`${server.url}/cds-services/chronic-disease-risk`, {
      headers: { authorization: `Bearer ${jwt}` },
      data: {
        hook: 'patient-view',
        hookInstance: crypto.randomUUID(),
        context: { patientId: 'smart-pat-1' },
        prefetch: {
          patient: {
            resourceType: 'Patient',
            id: 'smart-pat-1',
            identifier: [{ system: 'urn:triage:patient-number', value: 'SMART-1001' }],
            gender: 'female',
            birthDate: '1968-05-14',
          },
          observations: {
            resourceType: 'Bundle',
            type: 'searchset',
            entry: [
              ['8302-2', 162, 'cm'],
              ['29463-7', 110, 'kg'],
            ].map(([code, value, unit]) => ({
              resource: {
                resourceType: 'Observation',
                status: 'final',
                code: { coding: [{ system: 'http://loinc.org', code }] },
                subject,
                effectiveDateTime: '2026-10-02',
                valueQuantity: { value, unit, system: 'http://unitsofmeasure.org', code: unit },
              },
            })),
          },
          conditions: { resourceType: 'Bundle', type: 'searchset', entry: [] },
          familyHistory: {
            resourceType: 'Bundle',
            type: 'searchset',
            entry: [
              {
                resource: {
                  resourceType: 'FamilyMemberHistory',
                  status: 'completed',
                  patient: subject,
                  condition: [
                    { code: { coding: [{ system: 'http://snomed.info/sct', code: '44054006' }] } },
                  ],
                },
              },
            ],
          },
        },
      },
    });
    expect(call.status(), await call.text()).toBe(200);
    const { cards } = (await call.json()) as {
      cards: Array<{ links?: Array<{ url: string; type: string; appContext?: string }> }>;
    };
    const link = cards[0]?.links?.[0];
    expect(link).toMatchObject({ type: 'smart', url: `${server.url}/smart/launch` });
    expect(JSON.parse(link?.appContext ?? '{}')).toMatchObject({ start: 'assessment' });

    // The record system launches the link as SMART says: the launch URL with iss and launch.
    const launch = ehr.newLaunch({ patientId: 'smart-pat-1', appContext: link?.appContext });
    await page.goto(`${link?.url}?iss=${encodeURIComponent(ehr.issuer)}&launch=${launch}`);
    await signInAtTheGate(page);
    await expect(page.getByRole('textbox', { name: 'Age' })).toHaveValue('58');
  });
});
