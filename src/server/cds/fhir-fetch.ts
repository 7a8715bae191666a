import { AppError } from '../errors.ts';
import { REMOTE_TIMEOUT_MS } from '../services/cds-clients.ts';
import { namedAddresses, registeredServerOf } from './fhir-servers.ts';
import { outboundGet, OutboundFailure } from './outbound-get.ts';
import { PREFETCH_KEYS, resolvedTemplate, type PrefetchKey } from './service-definition.ts';

/**
 * The call's FHIR data read whole, or not at all (the specification's "FHIR Resource Access",
 * issue 33). A prefetch value that is an OperationOutcome, or a Bundle holding one, was not
 * read; a Bundle with a `next` link is one page of more. Each is read from the call's
 * `fhirServer` with its access token, following every `next` page on that server (up to
 * MAX_PAGES, failing rather than stopping short). Anything but a whole answer (no connection,
 * no answer in time, a status other than 2xx, not JSON, an OperationOutcome) is a failure, never
 * "no data": the caller gets the specification's 412 naming the prefetch key, in words that do
 * not say what the read met; the audit row says that (never the patient).
 */

/** The most pages of one search read: a patient's observations rarely need more than a few. */
export const MAX_PAGES = 10;

const what: Record<PrefetchKey, string> = {
  patient: 'The Patient',
  observations: 'The Observation search',
  conditions: 'The Condition search',
  familyHistory: 'The FamilyMemberHistory search',
};

/** A 412 for a key the service could not read: `met` (for the audit row only) says why. */
export class FhirReadFailure extends AppError {
  readonly met: string;
  constructor(key: PrefetchKey, met: string) {
    super(
      412,
      'fhir_data_unavailable',
      `${what[key]} (prefetch key ${key}) could not be read from the fhirServer.`,
    );
    this.met = `${key}: ${met}`;
  }
}

/** Where the service may read from: the call's fhirServer, within the client's registered servers. */
export interface FhirSource {
  base: URL;
  accessToken: string;
  registered: readonly string[];
}

interface Resource {
  resourceType?: unknown;
}

interface BundlePage extends Resource {
  entry?: unknown;
  link?: unknown;
}

function isResource(value: unknown): value is Resource {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function entriesOf(bundle: BundlePage): unknown[] {
  return Array.isArray(bundle.entry) ? (bundle.entry as unknown[]) : [];
}

function holdsOperationOutcome(bundle: BundlePage): boolean {
  return entriesOf(bundle).some(
    (entry) =>
      isResource(entry) &&
      isResource((entry as { resource?: unknown }).resource) &&
      (entry as { resource: Resource }).resource.resourceType === 'OperationOutcome',
  );
}

function nextLinkOf(bundle: BundlePage): unknown {
  const links = Array.isArray(bundle.link) ? (bundle.link as unknown[]) : [];
  const next = links.find(
    (link) => isResource(link) && (link as { relation?: unknown }).relation === 'next',
  );
  return next === undefined ? undefined : (next as { url?: unknown }).url;
}

/** What a prefetch value gives: the record's data whole, nothing usable, or a first page. */
export type PrefetchState =
  { kind: 'whole' } | { kind: 'unread'; why: string } | { kind: 'first page'; next: unknown };

export function prefetchStateOf(key: PrefetchKey, value: unknown): PrefetchState {
  if (value === undefined) return { kind: 'unread', why: 'left out' };
  // The specification's null: the record system has nothing for the template.
  if (value === null) return { kind: 'whole' };
  if (!isResource(value)) return { kind: 'unread', why: 'not a resource' };
  if (value.resourceType === 'OperationOutcome')
    return { kind: 'unread', why: 'an OperationOutcome' };
  if (key === 'patient') {
    return value.resourceType === 'Patient'
      ? { kind: 'whole' }
      : { kind: 'unread', why: 'not a Patient' };
  }
  if (value.resourceType !== 'Bundle') return { kind: 'unread', why: 'not a Bundle' };
  if (holdsOperationOutcome(value)) {
    return { kind: 'unread', why: 'a Bundle holding an OperationOutcome' };
  }
  const next = nextLinkOf(value);
  return next === undefined ? { kind: 'whole' } : { kind: 'first page', next };
}

async function getJson(source: FhirSource, url: URL, key: PrefetchKey): Promise<unknown> {
  let answer;
  try {
    answer = await outboundGet(
      url,
      { accept: 'application/fhir+json', authorization: `Bearer ${source.accessToken}` },
      { timeoutMs: REMOTE_TIMEOUT_MS, named: namedAddresses(source.registered) },
    );
  } catch (error) {
    if (error instanceof OutboundFailure) throw new FhirReadFailure(key, error.message);
    throw error;
  }
  if (answer.status < 200 || answer.status > 299) {
    throw new FhirReadFailure(key, `answered ${answer.status}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(answer.body) as unknown;
  } catch {
    throw new FhirReadFailure(key, 'answered what is not JSON');
  }
  if (isResource(value) && value.resourceType === 'OperationOutcome') {
    throw new FhirReadFailure(key, `answered ${answer.status} with an OperationOutcome`);
  }
  return value;
}

/** A `next` link the service may follow: a URL on the fhirServer's origin, under a registered server. */
function followable(source: FhirSource, next: unknown, key: PrefetchKey): URL {
  if (typeof next !== 'string' || !URL.canParse(next)) {
    throw new FhirReadFailure(key, 'a next link that is not a URL');
  }
  const url = new URL(next);
  if (
    url.origin !== source.base.origin ||
    registeredServerOf(url, source.registered) === undefined
  ) {
    throw new FhirReadFailure(key, 'a next link off the fhirServer');
  }
  return url;
}

/**
 * The entries of a search read to its end: those already in hand, then each page from `next` on.
 * `pagesRead` counts the pages in hand.
 */
async function readToEnd(
  source: FhirSource,
  key: PrefetchKey,
  entries: unknown[],
  next: unknown,
  pagesRead: number,
): Promise<unknown> {
  let pages = pagesRead;
  let link = next;
  while (link !== undefined) {
    if (pages >= MAX_PAGES) throw new FhirReadFailure(key, `more than ${MAX_PAGES} pages`);
    const page = await getJson(source, followable(source, link, key), key);
    pages += 1;
    if (!isResource(page) || page.resourceType !== 'Bundle') {
      throw new FhirReadFailure(key, 'a page that is not a Bundle');
    }
    if (holdsOperationOutcome(page)) {
      throw new FhirReadFailure(key, 'a page holding an OperationOutcome');
    }
    entries.push(...entriesOf(page));
    link = nextLinkOf(page);
  }
  return { resourceType: 'Bundle', type: 'searchset', entry: entries };
}

async function readKey(
  source: FhirSource,
  key: PrefetchKey,
  patientId: string,
  given: PrefetchState,
  value: unknown,
): Promise<unknown> {
  if (given.kind === 'first page') {
    return readToEnd(source, key, [...entriesOf(value as BundlePage)], given.next, 1);
  }
  const url = new URL(resolvedTemplate(key, patientId), source.base);
  if (key === 'patient') {
    const patient = await getJson(source, url, key);
    if (!isResource(patient) || patient.resourceType !== 'Patient') {
      throw new FhirReadFailure(key, 'an answer that is not a Patient');
    }
    return patient;
  }
  return readToEnd(source, key, [], url.href, 0);
}

/** The keys of a prefetch the service must read (not given whole), with why for each. */
export function keysToRead(
  prefetch: Readonly<Record<string, unknown>>,
): Array<{ key: PrefetchKey; state: Exclude<PrefetchState, { kind: 'whole' }> }> {
  return PREFETCH_KEYS.flatMap((key) => {
    const state = prefetchStateOf(key, prefetch[key]);
    return state.kind === 'whole' ? [] : [{ key, state }];
  });
}

/** Reads one key whole from the source (a launch's own read), or a FhirReadFailure. */
export function readWhole(
  source: FhirSource,
  key: PrefetchKey,
  patientId: string,
): Promise<unknown> {
  return readKey(source, key, patientId, { kind: 'unread', why: 'not given' }, undefined);
}

/** Reads the keys not given whole from the source: all of them, or a FhirReadFailure. */
export async function readMissingPrefetch(
  source: FhirSource,
  prefetch: Readonly<Record<string, unknown>>,
  patientId: string,
): Promise<Partial<Record<PrefetchKey, unknown>>> {
  const read = await Promise.all(
    keysToRead(prefetch).map(
      async ({ key, state }) =>
        [key, await readKey(source, key, patientId, state, prefetch[key])] as const,
    ),
  );
  return Object.fromEntries(read);
}
