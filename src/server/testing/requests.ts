import type { TestApp } from './app.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Requests to the test app as a signed-in user (their session cookie), with optional headers. */
export function requestsAs(t: TestApp) {
  return (
    who: { cookie: string },
    method: Method,
    url: string,
    payload?: object,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method,
      url,
      headers: { cookie: who.cookie, ...headers },
      ...(payload === undefined ? {} : { payload }),
    });
}

export type Requests = ReturnType<typeof requestsAs>;

/** The If-Match header naming an assessment's or a record's version. */
export function atVersion(version: number): Record<string, string> {
  return { 'if-match': `"${version}"` };
}
