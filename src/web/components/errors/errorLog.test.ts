import { describe, expect, it } from 'vitest';
import {
  errorLogKey,
  markErrorRecovered,
  parseErrorLog,
  readErrorLog,
  recordErrorLogEntry,
  type ErrorLogEntry,
  type LogStorage,
} from './errorLog.ts';

function memoryStorage(initial: Record<string, string> = {}): LogStorage & {
  values: Map<string, string>;
} {
  const values = new Map(Object.entries(initial));
  return {
    values,
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => {
      values.set(key, value);
    },
  };
}

function entry(n: number): ErrorLogEntry {
  return {
    id: `ERR-${n.toString(36).toUpperCase()}`,
    time: new Date(Date.UTC(2026, 10, 22, 9, 0, n)).toISOString(),
    context: 'render /',
    recovered: false,
  };
}

describe('the browser error log', () => {
  it('keeps the latest 50 entries, oldest first', () => {
    const storage = memoryStorage();
    for (let n = 1; n <= 53; n += 1) recordErrorLogEntry(entry(n), storage);
    const log = readErrorLog(storage);
    expect(log).toHaveLength(50);
    expect(log[0]).toEqual(entry(4));
    expect(log.at(-1)).toEqual(entry(53));
  });

  it('marks one entry recovered and leaves the others', () => {
    const storage = memoryStorage();
    recordErrorLogEntry(entry(1), storage);
    recordErrorLogEntry(entry(2), storage);
    markErrorRecovered(entry(1).id, storage);
    expect(readErrorLog(storage).map((e) => e.recovered)).toEqual([true, false]);
  });

  it('stores only the id, time, context and recovered flag', () => {
    const storage = memoryStorage();
    recordErrorLogEntry({ ...entry(1), message: 'age 62' } as ErrorLogEntry, storage);
    const stored = JSON.parse(storage.values.get(errorLogKey) ?? '[]') as object[];
    expect(Object.keys(stored[0] ?? {}).sort()).toEqual(['context', 'id', 'recovered', 'time']);
  });

  it('starts afresh from a stored value it cannot read', () => {
    expect(parseErrorLog('not json')).toEqual([]);
    expect(parseErrorLog('{"id":1}')).toEqual([]);
    expect(parseErrorLog(JSON.stringify([entry(1), { id: 2 }]))).toEqual([entry(1)]);
    const storage = memoryStorage({ [errorLogKey]: '{broken' });
    recordErrorLogEntry(entry(7), storage);
    expect(readErrorLog(storage)).toEqual([entry(7)]);
  });

  it('does not throw when storage refuses to write', () => {
    const full: LogStorage = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(() => recordErrorLogEntry(entry(1), full)).not.toThrow();
    expect(() => recordErrorLogEntry(entry(1), null)).not.toThrow();
  });
});
