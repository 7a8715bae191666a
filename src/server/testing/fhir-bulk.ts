import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';

export interface FhirJson {
  resourceType: string;
  id?: string;
  [key: string]: unknown;
}

export interface BulkManifestJson {
  transactionTime: string;
  request: string;
  requiresAccessToken: boolean;
  output: Array<{ type: string; url: string; count: number }>;
  error: Array<{ type: string; url: string; count: number }>;
  deleted?: Array<{ type: string; url: string; count: number }>;
}

/** Every reference (`Type/id`) a resource or list of them holds. */
export function referencesIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(referencesIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, v]) =>
    key === 'reference' && typeof v === 'string' ? [v] : referencesIn(v),
  );
}

/** A caller: a signed-in user (their cookie) or the headers a token sends. */
type Caller = { cookie: string } | Record<string, string>;

function headersOf(who: Caller): Record<string, string> {
  return 'cookie' in who && typeof who.cookie === 'string' ? { cookie: who.cookie } : who;
}

/** The path of an absolute URL the server gave, as the test app is asked. */
function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** A FHIR Bulk Data client's steps against the test app: kick-off, poll, download. */
export function bulkRequests(t: { app: FastifyInstance }) {
  return {
    kickOff(who: Caller, url: string, headers: Record<string, string> = {}) {
      return t.app.inject({
        method: 'GET',
        url,
        headers: {
          accept: 'application/fhir+json',
          prefer: 'respond-async',
          ...headersOf(who),
          ...headers,
        },
      });
    },

    /** Polls the status URL until the export completes (200) and returns its manifest. */
    async manifestOf(who: Caller, location: string) {
      for (let attempt = 0; attempt < 500; attempt++) {
        const response = await t.app.inject({
          method: 'GET',
          url: pathOf(location),
          headers: headersOf(who),
        });
        if (response.statusCode === 200) {
          return { manifest: response.json<BulkManifestJson>(), response };
        }
        expect(response.statusCode, response.body).toBe(202);
        expect(response.headers['x-progress']).toMatch(/resources written/);
        expect(response.headers['retry-after']).toBe('2');
        await sleep(10);
      }
      throw new Error(`The export at ${location} did not complete`);
    },

    /** Every resource of every output file, in order. */
    async download(who: Caller, manifest: BulkManifestJson): Promise<FhirJson[]> {
      const resources: FhirJson[] = [];
      for (const file of manifest.output) {
        const response = await t.app.inject({
          method: 'GET',
          url: pathOf(file.url),
          headers: { accept: 'application/fhir+ndjson', ...headersOf(who) },
        });
        expect(response.statusCode, response.body).toBe(200);
        expect(response.headers['content-type']).toBe('application/fhir+ndjson');
        const lines = response.body.split('\n');
        expect(lines.pop()).toBe('');
        const parsed = lines.map((line) => JSON.parse(line) as FhirJson);
        for (const resource of parsed) expect(resource.resourceType).toBe(file.type);
        resources.push(...parsed);
      }
      return resources;
    },
  };
}
