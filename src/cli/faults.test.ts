import { describe, expect, it } from 'vitest';
import { parseRuleSets } from '../engine/index.ts';
import { faultLine, ruleSetFault } from './faults.ts';

describe('the one line a fault is reported in', () => {
  it('names a malformed rule set file and each fault in it, on one line', () => {
    let refusal: unknown;
    try {
      parseRuleSets([{ fileName: '2.0.json', data: { version: 7 } }]);
    } catch (error) {
      refusal = error;
    }
    const line = faultLine(ruleSetFault(refusal));
    expect(line).toMatch(/^Cannot start: Invalid rule set file 2\.0\.json: 2\.0\.json: \S+: .+/);
    expect(line).not.toContain('\n');
  });

  it('says a full disk, from SQLite or the file system', () => {
    const sqliteFull = Object.assign(new Error('database or disk is full'), { errcode: 13 });
    expect(faultLine(sqliteFull)).toBe(
      'Stopped: the disk is full; nothing more was written (database or disk is full)',
    );
    const noSpace = Object.assign(new Error('ENOSPC: no space left on device, write'), {
      code: 'ENOSPC',
    });
    expect(faultLine(noSpace)).toBe(
      'Stopped: the disk is full; nothing more was written (ENOSPC: no space left on device, write)',
    );
  });

  it('says a database that cannot be reached, through a wrapping error', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), {
      code: 'ECONNREFUSED',
    });
    const wrapped = new Error('The database schema could not be brought up to date: x', {
      cause: refused,
    });
    expect(faultLine(wrapped)).toBe(
      'Stopped: the database cannot be reached (DATABASE_URL): connect ECONNREFUSED 127.0.0.1:1',
    );
  });

  it('leaves a fault of the product itself to its stack trace', () => {
    expect(faultLine(new TypeError('Cannot read properties of undefined'))).toBeUndefined();
  });
});
