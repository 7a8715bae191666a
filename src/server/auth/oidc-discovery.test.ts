import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { StartupFault } from '../startup.ts';
import { startTestOidcProvider, type TestOidcProvider } from '../testing/oidc-provider.ts';
import { discoverOidcProvider } from './oidc.ts';

const publicUrl = 'http://triage.test';
let provider: TestOidcProvider;
beforeAll(async () => {
  provider = await startTestOidcProvider(publicUrl);
});
afterAll(async () => {
  await provider.close();
});

function settingsFor(issuer: string) {
  const oidc = loadConfig({ ...provider.env(publicUrl), OIDC_ISSUER: issuer }).oidc;
  if (oidc === undefined) throw new Error('OIDC_ISSUER was not read');
  return oidc;
}

/** A port nothing listens on: one just given up by a server. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('discovering the provider at start', () => {
  it('reads the issuer’s discovery document, its sign-out endpoint included', async () => {
    const discovered = await discoverOidcProvider(settingsFor(provider.issuer));
    expect(discovered.serverMetadata()).toMatchObject({
      issuer: provider.issuer,
      end_session_endpoint: `${provider.issuer}/session/end`,
    });
  });

  it('stops the start in one line naming OIDC_ISSUER when nothing answers there', async () => {
    const issuer = `http://127.0.0.1:${await closedPort()}`;
    const fault = await discoverOidcProvider(settingsFor(issuer)).catch((error: unknown) => error);
    expect(fault).toBeInstanceOf(StartupFault);
    expect((fault as StartupFault).variable).toBe('OIDC_ISSUER');
    expect((fault as StartupFault).message).toBe(
      `Cannot start: no OpenID Connect provider answers as ${issuer} (OIDC_ISSUER): ECONNREFUSED`,
    );
  });

  it('stops the start when the address answers, but not as a provider or not as that issuer', async () => {
    const notFound = `${provider.issuer}/realms/other`;
    expect(await faultOf(notFound)).toBe(
      `Cannot start: no OpenID Connect provider answers as ${notFound} (OIDC_ISSUER): the discovery document answered HTTP 404`,
    );
    // The same provider reached by another name states another issuer than the one set.
    const alias = provider.issuer.replace('127.0.0.1', 'localhost');
    const mismatch = await faultOf(alias);
    expect(mismatch).toMatch(
      new RegExp(
        `^Cannot start: no OpenID Connect provider answers as ${alias} \\(OIDC_ISSUER\\): .*issuer`,
      ),
    );
    expect(mismatch).not.toContain('\n');
  });
});

async function faultOf(issuer: string): Promise<string> {
  const fault = await discoverOidcProvider(settingsFor(issuer)).catch((error: unknown) => error);
  expect(fault).toBeInstanceOf(StartupFault);
  expect((fault as StartupFault).variable).toBe('OIDC_ISSUER');
  return (fault as StartupFault).message;
}
