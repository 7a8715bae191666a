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
      publicUrl: undefined,
      followUpDaysHigh: 30,
      followUpDaysModerate: 90,
      mfaRequiredRoles: ['admin'],
      mfaGraceDays: 7,
      databasePoolSize: 10,
      passwordHashConcurrency: 2,
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
  ])('stops on an invalid %s, naming it', (variable, value) => {
    expect(() => loadConfig({ [variable]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [variable]: value })).toThrow(variable);
  });

  it('takes the patient number system as given when it is a URI', () => {
    for (const system of ['https://clinic.example/fhir/patient-number', 'urn:oid:1.2.3.4.5']) {
      expect(loadConfig({ TRIAGE_PATIENT_ID_SYSTEM: system }).patientIdSystem).toBe(system);
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
});
