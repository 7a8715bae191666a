import ipaddr from 'ipaddr.js';

/**
 * The FHIR servers a CDS client may name as a call's `fhirServer` (issue 33). Each is registered
 * with the client as a URL; a call's `fhirServer` must have the same scheme, host and port, and
 * the registered path as a prefix (whole path segments), or the service reads nothing from it.
 */

/** The loopback names http is allowed to (a record system on this machine, a test's stand-in). */
const LOCAL_HOSTNAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * A FHIR server URL as registered: https (http only to this machine), no user name, password,
 * query or fragment; given back without a trailing slash, or the problem with it.
 */
export function checkedFhirServerUrl(text: string): { url: string } | { problem: string } {
  if (!URL.canParse(text)) return { problem: `The FHIR server URL ${text} is not a URL.` };
  const url = new URL(text);
  const local = LOCAL_HOSTNAMES.includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) {
    return {
      problem: `The FHIR server URL ${text} must be https:// (http:// only to this machine).`,
    };
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    return {
      problem: `The FHIR server URL ${text} must not carry a user name, password, query or fragment.`,
    };
  }
  return { url: `${url.origin}${url.pathname.replace(/\/+$/, '')}` };
}

/** Whether `url` falls under the registered server `registered` (as checkedFhirServerUrl gives). */
export function isUnder(url: URL, registered: string): boolean {
  const prefix = new URL(registered);
  if (url.protocol !== prefix.protocol || url.host !== prefix.host) return false;
  if (url.username !== '' || url.password !== '') return false;
  const path = prefix.pathname.replace(/\/+$/, '');
  return path === '' || url.pathname === path || url.pathname.startsWith(`${path}/`);
}

/** The registered server a URL falls under, if any. */
export function registeredServerOf(url: URL, registered: readonly string[]): string | undefined {
  return registered.find((server) => isUnder(url, server));
}

/** An IP address in one spelling (IPv4-mapped IPv6 as IPv4), or undefined if `text` is none. */
export function normalizedAddress(text: string): string | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (!ipaddr.isValid(bare)) return undefined;
  return ipaddr.process(bare).toNormalizedString();
}

/**
 * The addresses outside the public unicast ranges that the registered servers name themselves
 * (`https://10.0.0.5/fhir`): only these may be reached among loopback, private and link-local.
 */
export function namedAddresses(registered: readonly string[]): Set<string> {
  const named = new Set<string>();
  for (const server of registered) {
    const address = normalizedAddress(new URL(server).hostname);
    if (address !== undefined) named.add(address);
  }
  return named;
}

/**
 * Why an address may not be connected to (its range: loopback, private, linkLocal, ...), or
 * undefined when it may: a public unicast address, or one a registered URL names.
 */
export function refusedRange(address: string, named: ReadonlySet<string>): string | undefined {
  const normalized = normalizedAddress(address);
  if (normalized === undefined) return 'not an IP address';
  const range = ipaddr.process(normalized).range();
  if (range === 'unicast' || named.has(normalized)) return undefined;
  return range;
}
