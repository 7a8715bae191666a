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
});
