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
  ])('stops on an invalid %s, naming it', (variable, value) => {
    expect(() => loadConfig({ [variable]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [variable]: value })).toThrow(variable);
  });
});
