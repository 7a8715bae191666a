import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { signedInAs, testPassword } from '../testing/users.ts';
import type { Access } from './guard.ts';
import { verifyPassword } from './passwords.ts';
import { can } from './policy.ts';

const publicOperations = new Set([
  'POST /api/session',
  // Answers 200 with or without a session, and names a user only for a live session's cookie.
  'GET /api/session/status',
  'POST /api/session/second-factor',
  // The steps after the password: the challenge cookie, not a session, says who takes them.
  'POST /api/session/second-factor/enrolment',
  'POST /api/session/second-factor/confirmation',
  // Sign-in through the organisation's provider: it starts and returns without a session.
  'GET /api/session/oidc/start',
  'GET /api/session/oidc/callback',
  'GET /api/health',
  'GET /api/health/ready',
  'GET /cds-services',
  'GET /fhir/metadata',
  // A launch from a record system and its return: bound by the launch's own cookie.
  'GET /smart/launch',
  'GET /smart/callback',
  // SMART Backend Services: the configuration is public, and a token request authenticates by
  // its signed assertion, not a session (an OAuth error without one, never a token).
  'GET /fhir/.well-known/smart-configuration',
  'POST /api/oauth/token',
]);
const someId = '019ab6f2-1c3d-7e4f-8a9b-0c1d2e3f4a5b';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface Operation {
  method: Method;
  /** The path with its parameters filled in, as a client would plainly write it. */
  path: string;
}

async function operationsOf(t: TestApp): Promise<Operation[]> {
  const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
    paths: Record<string, Record<string, unknown>>;
  }>();
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => ({
      method: method.toUpperCase() as Method,
      path: path.replaceAll(/\{[^}]+\}/g, someId),
    })),
  );
}

const percentEncoded = (character: string, lowerCase: boolean): string => {
  const hex = [...Buffer.from(character, 'utf8')]
    .map((byte) => `%${byte.toString(16).padStart(2, '0')}`)
    .join('');
  return lowerCase ? hex : hex.toUpperCase();
};

/**
 * Another way of writing a path: some characters percent-encoded (the slash among them), and
 * perhaps a doubled slash, a `/./`, an upper-case segment, a trailing slash or a `;` parameter.
 */
function spellingOf(path: string): fc.Arbitrary<string> {
  const characters = [...path];
  const separators = characters.flatMap((character, index) => (character === '/' ? [index] : []));
  const encodings = fc.array(fc.boolean(), {
    minLength: characters.length,
    maxLength: characters.length,
  });
  const structural = fc.oneof(
    fc.constant((p: string) => p),
    fc.constant((p: string) => `${p}/`),
    fc.constant((p: string) => `${p};jsessionid=1`),
    fc.constant((p: string) => p.toUpperCase()),
    fc.constant((p: string) => `/${p}`),
    fc.constantFrom(...separators).map((index) => (p: string) => {
      const at = [...p].slice(0, index).join('').length;
      return `${p.slice(0, at)}/.${p.slice(at)}`;
    }),
    fc.constantFrom(...separators).map((index) => (p: string) => {
      const at = [...p].slice(0, index).join('').length;
      return `${p.slice(0, at)}/${p.slice(at)}`;
    }),
    fc.constantFrom(...separators.slice(1)).map((index) => (p: string) => {
      const at = [...p].slice(0, index).join('').length;
      return `${p.slice(0, at)};x=1${p.slice(at)}`;
    }),
  );
  return fc
    .tuple(encodings, fc.boolean(), structural)
    .map(([encoded, lowerCase, change]) =>
      change(
        characters
          .map((character, index) =>
            encoded[index] === true ? percentEncoded(character, lowerCase) : character,
          )
          .join(''),
      ),
    );
}

/** A spelling is refused outright, or reaches the decision its plain form reaches. */
function refusedOrAsPlain(status: number, body: string, plainStatus: number): boolean {
  if (status === plainStatus || status === 404) return true;
  // A path the router cannot read is a bad request; it never got as far as a route's schema.
  if (status === 400) return !body.includes('validation_failed');
  return false;
}

describe.each(testDatabases())(
  'access decided by the route that runs, on $engine',
  (testDatabase) => {
    let t: TestApp;
    let nurse: { cookie: string };
    let operations: Operation[];
    /** The access of the route that answered the last request; undefined when none matched. */
    let answeredBy: Access | undefined;

    beforeAll(async () => {
      t = await openTestApp(testDatabase, {}, (app) => {
        app.addHook('onResponse', async (request) => {
          answeredBy = request.routeOptions.config.access;
        });
      });
      nurse = await signedInAs(t, 'nurse');
      operations = await operationsOf(t);
    });
    afterAll(async () => {
      await t.close();
    });

    const send = (operation: Operation, url: string, cookie?: string) => {
      answeredBy = undefined;
      return t.app.inject({
        method: operation.method,
        url,
        headers: cookie === undefined ? {} : { cookie },
        ...(operation.method === 'GET' || operation.method === 'DELETE' ? {} : { payload: {} }),
      });
    };

    it('never answers an anonymous request 2xx or 3xx, however the path is spelled', async () => {
      const guarded = operations.filter(
        (operation) => !publicOperations.has(`${operation.method} ${operation.path}`),
      );
      expect(guarded.length).toBeGreaterThan(20);
      for (const operation of guarded) {
        const plain = await send(operation, operation.path);
        expect(plain.statusCode, `${operation.method} ${operation.path}`).toBe(401);
        await fc.assert(
          fc.asyncProperty(spellingOf(operation.path), async (url) => {
            const response = await send(operation, url);
            expect(response.statusCode, `${operation.method} ${url}`).not.toBeLessThan(200);
            expect(
              refusedOrAsPlain(response.statusCode, response.body, 401),
              `${operation.method} ${url} answered ${response.statusCode}`,
            ).toBe(true);
          }),
          { numRuns: 40 },
        );
      }
    });

    it("never lets a nurse's request reach a route her role may not use, however it is spelled", async () => {
      let refusedOperations = 0;
      // Signing out would end the session the test goes on with.
      for (const operation of operations.filter(({ path }) => path !== '/api/session')) {
        const plain = await send(operation, operation.path, nurse.cookie);
        if (plain.statusCode !== 403) continue;
        refusedOperations += 1;
        await fc.assert(
          fc.asyncProperty(spellingOf(operation.path), async (url) => {
            const response = await send(operation, url, nurse.cookie);
            const answer = `${operation.method} ${url} answered ${response.statusCode}`;
            // A spelling may name another route (`/api/assessments/x%2Freview` is an assessment
            // whose id has a slash); whichever route answered, it is one a nurse may use, or it
            // refused her.
            if (
              answeredBy === undefined ||
              answeredBy === 'public' ||
              answeredBy === 'session' ||
              answeredBy === 'cds-client'
            ) {
              expect(refusedOrAsPlain(response.statusCode, response.body, 403), answer).toBe(true);
            } else if (!can('nurse', answeredBy)) {
              expect(response.statusCode, answer).toBe(403);
            }
          }),
          { numRuns: 40 },
        );
      }
      // The users, the audit trail, restore, reviews, exports and the extractor at least.
      expect(refusedOperations).toBeGreaterThanOrEqual(10);
    });

    it('answers a path that matches no route 404 whatever its spelling, never with the web page', async () => {
      for (const url of ['/%61pi/nothing-here', '/API/users', '/api/users/', '//api/users']) {
        const response = await t.app.inject({
          method: 'GET',
          url,
          headers: { accept: 'text/html' },
        });
        expect(response.statusCode, url).toBe(404);
        expect(response.headers['cache-control'], url).toBe('no-store');
      }
    });

    it('keeps no-store on an API answer that a spelled path reached', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/%61pi/health' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
    });
  },
);

describe.each(testDatabases())(
  'the reported takeover requests over HTTP, on $engine',
  (testDatabase) => {
    let t: TestApp;
    let origin: string;

    beforeAll(async () => {
      t = await openTestApp(testDatabase);
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await t.close();
    });

    /** Sends the path exactly as written: no client normalises it on the way. */
    function raw(method: string, path: string, body?: unknown): Promise<{ status: number }> {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      return new Promise((resolve, reject) => {
        const request = http.request(`${origin}/`, {
          method,
          path,
          headers: payload === undefined ? {} : { 'content-type': 'application/json' },
        });
        request.on('response', (response) => {
          response.resume();
          response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
        });
        request.on('error', reject);
        request.end(payload);
      });
    }

    it('makes nobody an administrator without a password', async () => {
      const victim = await signedInAs(t, 'nurse', 'nurse-victim');
      for (const prefix of ['/%61pi', '/ap%69', '/%61%70%69']) {
        const created = await raw('POST', `${prefix}/users`, {
          username: 'mallory',
          role: 'admin',
          password: 'mallory-owns-this-clinic',
          displayName: 'Mallory',
        });
        expect(created.status, prefix).toBe(401);
        const changed = await raw('PATCH', `${prefix}/users/${victim.userId}`, {
          role: 'admin',
          password: 'mallory-owns-this-clinic',
        });
        expect(changed.status, prefix).toBe(401);
        for (const read of [
          '/users',
          '/audit',
          '/audit.csv',
          '/assessments',
          '/assessments/population',
          '/reviews/agreement',
        ]) {
          expect((await raw('GET', `${prefix}${read}`)).status, `${prefix}${read}`).toBe(401);
        }
      }

      const users = await t.database.db.selectFrom('users').select(['username', 'role']).execute();
      expect(users).toEqual([{ username: 'nurse-victim', role: 'nurse' }]);
      const stored = await t.database.db
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', victim.userId)
        .executeTakeFirstOrThrow();
      expect(await verifyPassword(testPassword, stored.password_hash)).toBe(true);
    });
  },
);
