import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('configuration', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      sessionIdleMinutes: 30,
      sessionAbsoluteHours: 12,
      timeZone: 'UTC',
      patientIdSystem: 'urn:triage:patient-number',
      orgUnitIdSystem: 'urn:triage:org-unit',
      publicUrl: undefined,
      followUpDaysHigh: 30,
      followUpDaysModerate: 90,
      mfaRequiredRoles: ['admin'],
      mfaGraceDays: 7,
      databasePoolSize: 10,
      passwordHashConcurrency: 2,
      bulkExportHours: 24,
    });
    expect(config.dataDir).toMatch(/data$/);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['LOG_LEVEL', 'loud'],
    ['SESSION_IDLE_MINUTES', '0'],
    ['TRIAGE_TIME_ZONE', 'Mars/Olympus'],
    ['COOKIE_SECURE', 'maybe'],
    ['TRIAGE_PATIENT_ID_SYSTEM', 'patient-number'],
    ['TRIAGE_PATIENT_ID_SYSTEM', 'https://clinic example/patients'],
    ['TRIAGE_PATIENT_ID_SYSTEM', 'http://'],
    ['TRIAGE_ORG_UNIT_ID_SYSTEM', 'org-unit'],
    ['TRIAGE_ORG_UNIT_ID_SYSTEM', 'https://health example/units'],
    ['PUBLIC_URL', 'triage.clinic.example'],
    ['PUBLIC_URL', 'ftp://triage.clinic.example'],
    ['PUBLIC_URL', 'https://triage.clinic.example/?x=1'],
    ['FOLLOW_UP_DAYS_HIGH', '0'],
    ['FOLLOW_UP_DAYS_HIGH', '2.5'],
    ['FOLLOW_UP_DAYS_MODERATE', 'ninety'],
    ['MFA_REQUIRED_ROLES', 'admin,receptionist'],
    ['MFA_REQUIRED_ROLES', 'Admin'],
    ['MFA_GRACE_DAYS', '-1'],
    ['MFA_GRACE_DAYS', '91'],
    ['MFA_GRACE_DAYS', '1.5'],
    ['DATABASE_POOL_SIZE', '0'],
    ['DATABASE_POOL_SIZE', 'ten'],
    ['PASSWORD_HASH_CONCURRENCY', '0'],
    ['PASSWORD_HASH_CONCURRENCY', '2.5'],
    ['BULK_EXPORT_HOURS', '0'],
    ['BULK_EXPORT_HOURS', '721'],
    ['BULK_EXPORT_HOURS', '1.5'],
  ])('stops on an invalid %s, naming it', (variable, value) => {
    expect(() => loadConfig({ [variable]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [variable]: value })).toThrow(variable);
  });

  it('takes the patient number system as given when it is a URI', () => {
    for (const system of ['https://clinic.example/fhir/patient-number', 'urn:oid:1.2.3.4.5']) {
      expect(loadConfig({ TRIAGE_PATIENT_ID_SYSTEM: system }).patientIdSystem).toBe(system);
    }
  });

  it('takes the organisation unit system as given when it is a URI', () => {
    for (const system of ['https://health.example/fhir/facility-code', 'urn:oid:1.2.3.4.6']) {
      expect(loadConfig({ TRIAGE_ORG_UNIT_ID_SYSTEM: system }).orgUnitIdSystem).toBe(system);
    }
  });

  it('keeps the public URL without a trailing slash, a path included', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://triage.clinic.example/' }).publicUrl).toBe(
      'https://triage.clinic.example',
    );
    expect(loadConfig({ PUBLIC_URL: 'https://clinic.example/triage/' }).publicUrl).toBe(
      'https://clinic.example/triage',
    );
  });

  it('reads the roles that must use a second factor: a list, or none when empty', () => {
    expect(loadConfig({ MFA_REQUIRED_ROLES: '' }).mfaRequiredRoles).toEqual([]);
    expect(loadConfig({ MFA_REQUIRED_ROLES: ' doctor , admin,doctor' }).mfaRequiredRoles).toEqual([
      'doctor',
      'admin',
    ]);
    expect(loadConfig({ MFA_REQUIRED_ROLES: 'nurse' }).mfaRequiredRoles).toEqual(['nurse']);
    expect(() => loadConfig({ MFA_REQUIRED_ROLES: 'admin,receptionist' })).toThrow(
      'MFA_REQUIRED_ROLES must be a comma-separated list of nurse, doctor, admin, manager, or empty for none (got "receptionist")',
    );
  });

  it('takes the pool size and the password hashes at once as whole numbers', () => {
    const config = loadConfig({ DATABASE_POOL_SIZE: '40', PASSWORD_HASH_CONCURRENCY: '1' });
    expect(config.databasePoolSize).toBe(40);
    expect(config.passwordHashConcurrency).toBe(1);
  });

  it('takes a grace of 0 to 90 whole days', () => {
    expect(loadConfig({ MFA_GRACE_DAYS: '0' }).mfaGraceDays).toBe(0);
    expect(loadConfig({ MFA_GRACE_DAYS: '90' }).mfaGraceDays).toBe(90);
  });

  describe('sign-in through OpenID Connect', () => {
    const oidcEnv = {
      OIDC_ISSUER: 'https://login.clinic.example/realms/staff',
      OIDC_CLIENT_ID: 'triage',
      OIDC_CLIENT_SECRET: 'a-client-secret',
      OIDC_ROLE_MAP: 'nurse=clinic-nurse, doctor=clinic-doctor,admin=triage-admin,admin=it-admin',
      PUBLIC_URL: 'https://triage.clinic.example/',
    };

    it('is off, with passwords on, unless OIDC_ISSUER is set', () => {
      const config = loadConfig({});
      expect(config.oidc).toBeUndefined();
      expect(config.localSignIn).toBe(true);
    });

    it('reads the settings, with their defaults', () => {
      const config = loadConfig(oidcEnv);
      expect(config.oidc).toEqual({
        issuer: 'https://login.clinic.example/realms/staff',
        clientId: 'triage',
        clientSecret: 'a-client-secret',
        displayName: 'your organisation',
        scopes: 'openid profile email',
        roleClaim: 'roles',
        roleMap: [
          { role: 'nurse', claimValue: 'clinic-nurse' },
          { role: 'doctor', claimValue: 'clinic-doctor' },
          { role: 'admin', claimValue: 'triage-admin' },
          { role: 'admin', claimValue: 'it-admin' },
        ],
        unitClaim: undefined,
        mfaAcr: [],
        redirectUri: 'https://triage.clinic.example/api/session/oidc/callback',
        postLogoutRedirectUri: 'https://triage.clinic.example/',
      });
      expect(config.localSignIn).toBe(true);
      const set = loadConfig({
        ...oidcEnv,
        OIDC_DISPLAY_NAME: 'Ministry of Health',
        OIDC_SCOPES: 'openid  profile groups',
        OIDC_ROLE_CLAIM: 'realm_access.roles',
        OIDC_UNIT_CLAIM: 'units',
        OIDC_MFA_ACR: 'urn:clinic:mfa, gold',
        LOCAL_SIGN_IN: 'false',
      });
      expect(set.oidc).toMatchObject({
        displayName: 'Ministry of Health',
        scopes: 'openid profile groups',
        roleClaim: 'realm_access.roles',
        unitClaim: 'units',
        mfaAcr: ['urn:clinic:mfa', 'gold'],
      });
      expect(set.localSignIn).toBe(false);
    });

    it('reads the client secret from a file', () => {
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-oidc-secret-'));
      try {
        const file = path.join(folder, 'secret');
        fs.writeFileSync(file, 'secret-from-file\n');
        const withoutSecret = { ...oidcEnv, OIDC_CLIENT_SECRET: '' };
        expect(
          loadConfig({ ...withoutSecret, OIDC_CLIENT_SECRET_FILE: file }).oidc?.clientSecret,
        ).toBe('secret-from-file');
        expect(() =>
          loadConfig({ ...withoutSecret, OIDC_CLIENT_SECRET_FILE: path.join(folder, 'none') }),
        ).toThrow(/^Invalid configuration: OIDC_CLIENT_SECRET_FILE cannot be read: .* \(ENOENT\)$/);
        expect(() => loadConfig({ ...oidcEnv, OIDC_CLIENT_SECRET_FILE: file })).toThrow(
          'OIDC_CLIENT_SECRET_FILE is set with OIDC_CLIENT_SECRET; set only one of them',
        );
      } finally {
        fs.rmSync(folder, { recursive: true, force: true });
      }
    });

    it.each([
      [{ OIDC_ISSUER: 'http://login.clinic.example' }, 'OIDC_ISSUER must be the https:// URL'],
      [{ OIDC_ISSUER: 'not a url' }, 'OIDC_ISSUER must be the https:// URL'],
      [
        { OIDC_ISSUER: 'https://login.clinic.example/?x=1' },
        'OIDC_ISSUER must be the https:// URL',
      ],
      [{ OIDC_CLIENT_ID: '' }, 'OIDC_CLIENT_ID is required with OIDC_ISSUER'],
      [{ OIDC_CLIENT_SECRET: '' }, 'OIDC_CLIENT_SECRET is required with OIDC_ISSUER'],
      [{ OIDC_ROLE_MAP: '' }, 'OIDC_ROLE_MAP is required with OIDC_ISSUER'],
      [{ OIDC_ROLE_MAP: 'clerk=district-clerk' }, 'OIDC_ROLE_MAP must be comma-separated pairs'],
      [{ OIDC_ROLE_MAP: 'nurse' }, 'OIDC_ROLE_MAP must be comma-separated pairs'],
      [
        { OIDC_ROLE_MAP: 'nurse=staff,doctor=staff' },
        'OIDC_ROLE_MAP gives the claim value "staff" more than one role',
      ],
      [{ OIDC_SCOPES: 'profile email' }, 'OIDC_SCOPES must include openid'],
      [{ OIDC_ROLE_CLAIM: 'realm_access..roles' }, 'OIDC_ROLE_CLAIM must be a claim name'],
      [{ PUBLIC_URL: '' }, 'PUBLIC_URL is required with OIDC_ISSUER'],
      [{ LOCAL_SIGN_IN: 'no' }, 'LOCAL_SIGN_IN must be true or false (got "no")'],
    ])('stops on %j in one line naming the variable', (change, message) => {
      expect(() => loadConfig({ ...oidcEnv, ...change })).toThrow(
        `Invalid configuration: ${message}`,
      );
    });

    it('takes http:// only on a loopback address', () => {
      for (const issuer of [
        'http://127.0.0.1:8080',
        'http://localhost:8080/realms/x',
        'http://[::1]:9000',
      ]) {
        expect(loadConfig({ ...oidcEnv, OIDC_ISSUER: issuer }).oidc?.issuer).toBe(issuer);
      }
    });

    it('refuses provider settings without OIDC_ISSUER, and passwords off with no provider', () => {
      expect(() => loadConfig({ OIDC_CLIENT_ID: 'triage' })).toThrow(
        'Invalid configuration: OIDC_CLIENT_ID is set without OIDC_ISSUER',
      );
      expect(() => loadConfig({ LOCAL_SIGN_IN: 'false' })).toThrow(
        'Invalid configuration: LOCAL_SIGN_IN is false without OIDC_ISSUER',
      );
    });
  });

  describe('launching as a SMART app', () => {
    const smartEnv = {
      PUBLIC_URL: 'https://triage.clinic.example',
      SMART_CLIENT_ID: 'triage-app',
      SMART_ISSUERS: 'https://ehr.clinic.example/fhir/R4/, http://127.0.0.1:8080/fhir',
    };

    it('is off unless SMART_CLIENT_ID is set', () => {
      expect(loadConfig({}).smart).toBeUndefined();
    });

    it('asks the default scopes, and RiskAssessment creation only when writing back', () => {
      expect(loadConfig(smartEnv).smart).toEqual({
        clientId: 'triage-app',
        issuers: ['https://ehr.clinic.example/fhir/R4', 'http://127.0.0.1:8080/fhir'],
        scopes:
          'launch openid fhirUser patient/Patient.rs patient/Observation.rs patient/Condition.rs patient/FamilyMemberHistory.rs',
        writeBack: false,
        maxAgeDays: 365,
        redirectUri: 'https://triage.clinic.example/smart/callback',
        launchUrl: 'https://triage.clinic.example/smart/launch',
      });
      const writing = loadConfig({
        ...smartEnv,
        SMART_WRITE_BACK: 'true',
        SMART_MAX_AGE_DAYS: '90',
      });
      expect(writing.smart?.scopes.split(' ')).toContain('patient/RiskAssessment.c');
      expect(writing.smart).toMatchObject({ writeBack: true, maxAgeDays: 90 });
    });

    it.each([
      [{ ...smartEnv, SMART_ISSUERS: '' }, 'SMART_ISSUERS is required with SMART_CLIENT_ID'],
      [{ ...smartEnv, SMART_ISSUERS: 'http://ehr.clinic.example/fhir' }, 'SMART_ISSUERS must be'],
      [{ ...smartEnv, SMART_ISSUERS: 'https://ehr.example/fhir?x=1' }, 'SMART_ISSUERS must be'],
      [{ ...smartEnv, PUBLIC_URL: '' }, 'PUBLIC_URL is required with SMART_CLIENT_ID'],
      [
        { ...smartEnv, SMART_SCOPES: 'openid patient/Patient.rs' },
        'SMART_SCOPES must include launch',
      ],
      [{ ...smartEnv, SMART_MAX_AGE_DAYS: '0' }, 'SMART_MAX_AGE_DAYS must be a whole number'],
      [{ ...smartEnv, SMART_WRITE_BACK: 'yes' }, 'SMART_WRITE_BACK must be true or false'],
      [
        { SMART_ISSUERS: 'https://ehr.example/fhir' },
        'SMART_ISSUERS is set without SMART_CLIENT_ID',
      ],
    ])('refuses %j', (env, message) => {
      expect(() => loadConfig(env)).toThrow(message);
    });
  });
});
