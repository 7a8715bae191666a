/**
 * The browser's own error log (spec sections 3.6 and 9.1): the latest 50 errors the error screen
 * showed, each with its id, time, context and whether Try Again recovered. It holds no error
 * messages, so no patient data stays behind in the browser.
 */
export interface ErrorLogEntry {
  id: string;
  /** ISO-8601. */
  time: string;
  context: string;
  recovered: boolean;
}

export const errorLogCap = 50;
export const errorLogKey = 'triage_error_log';

/** The storage calls the log needs; localStorage in the browser. */
export type LogStorage = Pick<Storage, 'getItem' | 'setItem'>;

function isEntry(value: unknown): value is ErrorLogEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.id === 'string' &&
    typeof entry.time === 'string' &&
    typeof entry.context === 'string' &&
    typeof entry.recovered === 'boolean'
  );
}

/** The stored log; anything unreadable (another version's format, a hand edit) counts as empty. */
export function parseErrorLog(text: string | null): ErrorLogEntry[] {
  if (text === null) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter(isEntry) : [];
  } catch {
    return [];
  }
}

/** The log with the entry added at the end, keeping only the latest `cap` entries. */
export function withEntry(
  log: readonly ErrorLogEntry[],
  entry: ErrorLogEntry,
  cap = errorLogCap,
): ErrorLogEntry[] {
  const { id, time, context, recovered } = entry;
  return [...log, { id, time, context, recovered }].slice(-cap);
}

export function withRecovered(log: readonly ErrorLogEntry[], id: string): ErrorLogEntry[] {
  return log.map((entry) => (entry.id === id ? { ...entry, recovered: true } : entry));
}

function browserStorage(): LogStorage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function update(
  change: (log: ErrorLogEntry[]) => ErrorLogEntry[],
  storage: LogStorage | null,
): void {
  if (storage === null) return;
  // Storage can be full or blocked; losing a log entry must not hide the error screen.
  try {
    storage.setItem(
      errorLogKey,
      JSON.stringify(change(parseErrorLog(storage.getItem(errorLogKey)))),
    );
  } catch {
    // The server log has the report as well.
  }
}

export function readErrorLog(storage: LogStorage | null = browserStorage()): ErrorLogEntry[] {
  try {
    return parseErrorLog(storage?.getItem(errorLogKey) ?? null);
  } catch {
    return [];
  }
}

export function recordErrorLogEntry(
  entry: ErrorLogEntry,
  storage: LogStorage | null = browserStorage(),
): void {
  update((log) => withEntry(log, entry), storage);
}

export function markErrorRecovered(
  id: string,
  storage: LogStorage | null = browserStorage(),
): void {
  update((log) => withRecovered(log, id), storage);
}
