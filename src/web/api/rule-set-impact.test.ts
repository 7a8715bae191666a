import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONDITIONS, RISK_STATUSES } from '../../engine/index.ts';
import type { ImpactResult } from '../../shared/rule-set-impact.ts';
import { answer, failureOf, planFetch } from './planned-fetch.ts';
import { runImpactAnalysis, type ImpactProgress } from './rule-set-impact.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

const zeroCounts = Object.fromEntries(RISK_STATUSES.map((status) => [status, 0]));
const noAgreement = { reviews: 0, agreed: 0, share: null, kappa: null, kappaReviews: 0 };
const result: ImpactResult = {
  version: '2.0-dm2-bmi-0.25',
  title: 'Trial',
  from: '2025-01-01',
  to: null,
  assessments: 3,
  conditions: Object.fromEntries(
    CONDITIONS.map((condition) => [
      condition,
      {
        changed: 0,
        matrix: Object.fromEntries(RISK_STATUSES.map((status) => [status, zeroCounts])),
        scoreChanged: 0,
        scoreChangeMean: null,
        agreement: { stored: noAgreement, new: noAgreement },
      },
    ]),
  ) as ImpactResult['conditions'],
};

/** A 200 NDJSON answer whose body arrives in the given chunks. */
function streamed(...chunks: string[]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'application/x-ndjson' } });
}

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

describe('runImpactAnalysis', () => {
  it('asks for NDJSON, reports each progress line and returns the result', async () => {
    const fetchMock = planFetch(
      streamed(
        line({ progress: { done: 0, total: 3 } }),
        line({ progress: { done: 3, total: 3 } }).slice(0, 10),
        line({ progress: { done: 3, total: 3 } }).slice(10),
        line({ result }),
      ),
    );
    const progress: ImpactProgress[] = [];
    const answered = await runImpactAnalysis('2.0-dm2-bmi-0.25', { from: '2025-01-01' }, (p) =>
      progress.push(p),
    );
    expect(answered).toEqual(result);
    expect(progress).toEqual([
      { done: 0, total: 3 },
      { done: 3, total: 3 },
    ]);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/rule-sets/2.0-dm2-bmi-0.25/impact');
    expect(init?.method).toBe('POST');
    expect(init?.headers).toMatchObject({ accept: 'application/x-ndjson' });
    expect(JSON.parse(init?.body as string)).toEqual({ from: '2025-01-01' });
  });

  it("throws the server's refusal before the stream, with its field", async () => {
    planFetch(
      answer(400, {
        error: {
          code: 'validation_failed',
          message: 'Must not be before the start date',
          field: 'to',
        },
      }),
    );
    const error = await failureOf(
      runImpactAnalysis('2.0', { from: '2025-02-01', to: '2025-01-01' }, () => {}),
    );
    expect(error).toMatchObject({ status: 400, code: 'validation_failed', field: 'to' });
  });

  it('throws the error line of a stream that fails midway', async () => {
    planFetch(
      streamed(
        line({ progress: { done: 1, total: 3 } }),
        line({ error: { code: 'database_unavailable', message: 'The database is unavailable.' } }),
      ),
    );
    const error = await failureOf(runImpactAnalysis('2.0', {}, () => {}));
    expect(error).toMatchObject({
      code: 'database_unavailable',
      message: 'The database is unavailable.',
    });
  });

  it('fails as unexpected when the stream ends without a result or sends something else', async () => {
    planFetch(streamed(line({ progress: { done: 1, total: 3 } })));
    expect(await failureOf(runImpactAnalysis('2.0', {}, () => {}))).toMatchObject({
      code: 'internal',
    });
    planFetch(streamed(line({ progress: { done: 1 } })));
    expect(await failureOf(runImpactAnalysis('2.0', {}, () => {}))).toMatchObject({
      code: 'internal',
    });
    planFetch(streamed('{"progress":'));
    expect(await failureOf(runImpactAnalysis('2.0', {}, () => {}))).toMatchObject({
      code: 'internal',
    });
  });

  it('fails as a network error when no answer comes', async () => {
    planFetch(new TypeError('fetch failed'));
    expect(await failureOf(runImpactAnalysis('2.0', {}, () => {}))).toMatchObject({
      status: 0,
      code: 'network',
    });
  });
});
