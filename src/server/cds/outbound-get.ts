import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { refusedRange } from './fhir-servers.ts';

/**
 * One request to a record system's FHIR server, connecting only to an address it has checked: a
 * host name is resolved here and the socket connects to the address that passed (no pooled
 * socket is reused), so a name cannot resolve to a public address for the check and a private
 * one for the connection. A host name may resolve to public unicast addresses only; loopback,
 * private, link-local and the other special ranges are reached only by a URL that names the
 * address itself and that the client registered (`named`). No redirect is followed (a 3xx is an
 * answer like any other).
 */

/** Why a GET got no answer, in words for the audit row (never the URL, which names the patient). */
export class OutboundFailure extends Error {}

export interface OutboundAnswer {
  status: number;
  body: string;
}

/** The largest answer read; a FHIR page of a patient's resources is far smaller. */
export const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/** A host name's special-range addresses are never exempt: only an address in the URL is. */
const NONE_NAMED: ReadonlySet<string> = new Set();

/** Resolves a host name to its public unicast addresses only; none is an error. */
function lookupPublic(hostname: string, options: dns.LookupOptions, callback: LookupCallback) {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error !== null) {
      callback(error, []);
      return;
    }
    const usable = addresses.filter(
      (entry) => refusedRange(entry.address, NONE_NAMED) === undefined,
    );
    const first = usable[0];
    if (first === undefined) {
      const ranges = new Set(addresses.map((entry) => refusedRange(entry.address, NONE_NAMED)));
      callback(
        new OutboundFailure(
          `the host name resolves only to addresses not allowed (${[...ranges].join(', ')}); register such a server by its address`,
        ),
        [],
      );
      return;
    }
    if (options.all === true) callback(null, usable);
    else callback(null, first.address, first.family);
  });
}

export function outboundGet(
  url: URL,
  headers: Record<string, string>,
  /** `named`: the special-range addresses registered URLs name, the only ones reachable. */
  options: { timeoutMs: number; named: ReadonlySet<string> },
): Promise<OutboundAnswer> {
  return outboundRequest('GET', url, headers, undefined, options);
}

/** One request (a GET, or a POST with its body) under the rules of outboundGet. */
export function outboundRequest(
  method: 'GET' | 'POST',
  url: URL,
  headers: Record<string, string>,
  body: string | undefined,
  options: { timeoutMs: number; named: ReadonlySet<string> },
): Promise<OutboundAnswer & { location: string | undefined }> {
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(literal) !== 0) {
    const refused = refusedRange(literal, options.named);
    if (refused !== undefined) {
      return Promise.reject(
        new OutboundFailure(`the address is ${refused} and no registered URL names it`),
      );
    }
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    const fail = (reason: string) => {
      settle(() => reject(new OutboundFailure(reason)));
      request.destroy();
    };
    const request = client.request(
      url,
      { method, headers, agent: false, lookup: lookupPublic },
      (answer) => {
        const chunks: Buffer[] = [];
        let size = 0;
        answer.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) fail(`the answer is larger than ${MAX_ANSWER_BYTES} bytes`);
          else chunks.push(chunk);
        });
        answer.on('end', () =>
          settle(() =>
            resolve({
              status: answer.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('utf8'),
              location: answer.headers.location,
            }),
          ),
        );
        answer.on('error', () => fail('the answer was cut short'));
        answer.on('close', () => {
          if (!answer.complete) fail('the answer was cut short');
        });
      },
    );
    const timer = setTimeout(
      () => fail(`no answer within ${options.timeoutMs / 1000} s`),
      options.timeoutMs,
    );
    request.on('error', (error: NodeJS.ErrnoException) =>
      fail(
        error instanceof OutboundFailure
          ? error.message
          : `no connection (${error.code ?? error.name})`,
      ),
    );
    request.end(body);
  });
}
