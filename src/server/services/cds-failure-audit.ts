import { CDS_SERVICE_ID } from '../cds/service-definition.ts';
import type { AppContext } from '../context.ts';
import { recordAudit } from './audit.ts';

/**
 * The audit rows of failed CDS calls, capped per address (issue 33): anyone can send calls that
 * fail, and a row for each would let one sender fill the audit trail. From one address, the
 * first FAILURE_ROWS_PER_WINDOW failures of a minute are written one by one; the rest are
 * counted, and written as one row when the minute ends (on the next failure after it, when the
 * minute's timer fires, or when the server stops).
 */

export const FAILURE_ROWS_PER_WINDOW = 60;
export const FAILURE_WINDOW_MS = 60_000;

/** Who a failed call was from: a verified client's issuer, else nobody (what it claimed is detail). */
export interface FailedCall {
  address: string;
  issuer: string | undefined;
  detail: string;
}

interface Window {
  start: number;
  written: number;
  counted: number;
  timer: NodeJS.Timeout | undefined;
}

export class CdsFailureAudit {
  private readonly windows = new Map<string, Window>();
  private readonly context: AppContext;

  constructor(context: AppContext) {
    this.context = context;
  }

  async record(call: FailedCall): Promise<void> {
    const now = this.context.now().getTime();
    await this.writeEnded(now);
    let window = this.windows.get(call.address);
    if (window === undefined) {
      window = { start: now, written: 0, counted: 0, timer: undefined };
      this.windows.set(call.address, window);
    }
    if (window.written < FAILURE_ROWS_PER_WINDOW) {
      window.written += 1;
      await recordAudit(this.context.database.db, {
        at: new Date(now),
        actor: call.issuer === undefined ? null : { id: null, username: call.issuer },
        action: 'cds_call',
        target: { type: 'cds_service', id: CDS_SERVICE_ID },
        outcome: 'failure',
        address: call.address,
        detail: call.detail.slice(0, 1000),
      });
      return;
    }
    window.counted += 1;
    window.timer ??= setTimeout(() => {
      void this.writeEnded(this.context.now().getTime()).catch(() => undefined);
    }, FAILURE_WINDOW_MS).unref();
  }

  /** Writes the count of every window, ended or not: the server is stopping. */
  async writeAll(): Promise<void> {
    await this.writeEnded(this.context.now().getTime(), true);
  }

  /** Writes the count of every window that has ended by `now` (every one when `all`). */
  private async writeEnded(now: number, all = false): Promise<void> {
    for (const [address, window] of this.windows) {
      if (!all && now < window.start + FAILURE_WINDOW_MS) continue;
      this.windows.delete(address);
      clearTimeout(window.timer);
      if (window.counted === 0) continue;
      const end = Math.min(now, window.start + FAILURE_WINDOW_MS);
      await recordAudit(this.context.database.db, {
        at: new Date(end),
        actor: null,
        action: 'cds_call',
        target: { type: 'cds_service', id: CDS_SERVICE_ID },
        outcome: 'failure',
        address,
        detail:
          `${window.counted} more failed calls from this address from ` +
          `${new Date(window.start).toISOString()} to ${new Date(end).toISOString()}, ` +
          `counted rather than written one by one`,
      });
    }
  }
}
