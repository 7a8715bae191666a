import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** A person known to the test provider: their `sub` and the claims their ID token carries. */
export interface ProviderAccount {
  sub: string;
  claims: Record<string, unknown>;
  /** How they signed in there (`amr`), e.g. ['pwd'] or ['pwd', 'mfa']. */
  amr?: string[];
  acr?: string;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The settings that point the product at this provider (PUBLIC_URL is the caller's). */
  env(publicUrl: string): Record<string, string>;
  /** Adds or replaces an account. */
  setAccount(account: ProviderAccount): void;
  /**
   * Who signs in at the next interaction; unset, the login page asks for a `sub` (the browser
   * test types it there).
   */
  signInAs: string | undefined;
  /** Makes the next interaction end in the error an organisation's refusal gives. */
  denyNext: boolean;
  close(): Promise<void>;
}

function page(body: string): string {
  return `<!doctype html><html lang="en"><head><title>Test provider</title></head><body>${body}</body></html>`;
}

/**
 * A real OpenID Connect provider (oidc-provider, the certified Node implementation) on a
 * loopback port, with one confidential client for the product whose public URL is `publicUrl`.
 * Its login page is a form with the `sub` to sign in as; a test may skip it (`signInAs`).
 */
export async function startTestOidcProvider(publicUrl: string): Promise<TestOidcProvider> {
  const accounts = new Map<string, ProviderAccount>();
  const clientId = 'triage-test';
  const clientSecret = crypto.randomBytes(24).toString('base64url');
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [`${publicUrl}/api/session/oidc/callback`],
        post_logout_redirect_uris: [`${publicUrl}/`],
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test-key', use: 'sig' }] },
    cookies: { keys: [crypto.randomBytes(16).toString('hex')] },
    pkce: { required: () => true },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 3600,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
    },
    claims: {
      acr: null,
      amr: null,
      auth_time: null,
      iss: null,
      sid: null,
      openid: ['sub', 'roles', 'units', 'amr', 'acr'],
      profile: ['name', 'preferred_username'],
      email: ['email'],
    },
    acrValues: ['urn:test:mfa', 'urn:test:password'],
    // Every claim in the ID token, as identity providers configured for this product send them.
    conformIdTokenClaims: false,
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        // The provider's sign-out question, without the default page's web fonts.
        logoutSource: (context: { body: string }, form: string) => {
          context.body = page(
            `<h1>Sign out of the test provider?</h1>${form}` +
              '<button type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button>',
          );
        },
      },
    },
    interactions: {
      url: (_context: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    findAccount: (_context: unknown, sub: string) => {
      const account = accounts.get(sub);
      if (account === undefined) return undefined;
      return { accountId: sub, claims: () => ({ sub, ...account.claims }) };
    },
  });

  const state: { signInAs: string | undefined; denyNext: boolean } = {
    signInAs: undefined,
    denyNext: false,
  };

  async function finish(
    request: http.IncomingMessage,
    response: http.ServerResponse,
    sub: string,
  ): Promise<void> {
    const details = await provider.interactionDetails(request, response);
    if (state.denyNext) {
      state.denyNext = false;
      await provider.interactionFinished(request, response, {
        error: 'access_denied',
        error_description: 'The user refused',
      });
      return;
    }
    const account = accounts.get(sub);
    if (account === undefined) {
      response.writeHead(400, { 'content-type': 'text/html' }).end(page('<p>No such account</p>'));
      return;
    }
    const grant = new provider.Grant({ accountId: sub, clientId: details.params.client_id });
    grant.addOIDCScope(details.params.scope ?? 'openid');
    await provider.interactionFinished(
      request,
      response,
      {
        login: {
          accountId: sub,
          amr: account.amr ?? ['pwd'],
          ...(account.acr ? { acr: account.acr } : {}),
        },
        consent: { grantId: await grant.save() },
      },
      { mergeWithLastSubmission: false },
    );
  }

  const providerCallback = provider.callback();
  server.on('request', (request, response) => {
    const url = new URL(request.url ?? '/', issuer);
    const interaction = /^\/interaction\/([^/]+)(\/login)?$/.exec(url.pathname);
    if (interaction === null) {
      providerCallback(request, response);
      return;
    }
    const fail = (error: unknown) =>
      response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    if (request.method === 'POST' && interaction[2] === '/login') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        finish(request, response, new URLSearchParams(body).get('sub') ?? '').catch(fail);
      });
      return;
    }
    if (state.signInAs !== undefined || state.denyNext) {
      finish(request, response, state.signInAs ?? '').catch(fail);
      return;
    }
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        page(
          `<h1>Test provider sign-in</h1><form method="post" action="/interaction/${interaction[1]}/login">` +
            '<label>Subject <input name="sub" autocomplete="off"></label>' +
            '<button type="submit">Continue</button></form>',
        ),
      );
  });

  return {
    issuer,
    clientId,
    clientSecret,
    env: (appUrl) => ({
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: clientId,
      OIDC_CLIENT_SECRET: clientSecret,
      OIDC_ROLE_MAP: 'nurse=clinic-nurse,doctor=clinic-doctor,admin=triage-admin',
      PUBLIC_URL: appUrl,
    }),
    setAccount: (account) => accounts.set(account.sub, account),
    get signInAs() {
      return state.signInAs;
    },
    set signInAs(sub) {
      state.signInAs = sub;
    },
    get denyNext() {
      return state.denyNext;
    },
    set denyNext(deny) {
      state.denyNext = deny;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
