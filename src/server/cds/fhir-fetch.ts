import { AppError } from '../errors.ts';
import { REMOTE_TIMEOUT_MS } from '../services/cds-clients.ts';
import { resolvedTemplate, type PrefetchKey } from './service-definition.ts';

/**
 * Reads what a call did not prefetch from the record system's FHIR server, with the access token
 * the call gave (the specification's "FHIR Resource Access"). Each request waits at most
 * REMOTE_TIMEOUT_MS; a search's further pages are followed on the same server, up to a limit. A
 * failure is the specification's 412, naming the resource type and the answer, never the patient.
 */

/** The most pages of one search read: a patient's observations rarely need more than a few. */
const MAX_PAGES = 10;

const what: Record<PrefetchKey, string> = {
  patient: 'the Patient',
  observations: 'the Observation search',
  conditions: 'the Condition search',
  familyHistory: 'the FamilyMemberHistory search',
};

function unavailable(message: string): AppError {
  return new AppError(412, 'fhir_data_unavailable', message);
}

async function getJson(url: URL, accessToken: string, description: string): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/fhir+json', authorization: `Bearer ${accessToken}` },
      signal: AbortSignal.timeout(REMOTE_TIMEOUT_MS),
      redirect: 'error',
    });
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    throw unavailable(
      timedOut
        ? `The FHIR server did not answer ${description} within ${REMOTE_TIMEOUT_MS / 1000} s.`
        : `The FHIR server could not be reached for ${description}.`,
    );
  }
  if (!response.ok) {
    throw unavailable(`The FHIR server answered ${description} with ${response.status}.`);
  }
  try {
    return await response.json();
  } catch {
    throw unavailable(`The FHIR server's answer to ${description} is not JSON.`);
  }
}

interface BundlePage {
  resourceType?: unknown;
  entry?: unknown;
  link?: Array<{ relation?: unknown; url?: unknown }>;
}

async function readSearch(
  first: URL,
  base: URL,
  accessToken: string,
  description: string,
): Promise<unknown> {
  const entries: unknown[] = [];
  let url: URL | undefined = first;
  for (let page = 0; url !== undefined && page < MAX_PAGES; page++) {
    const bundle = (await getJson(url, accessToken, description)) as BundlePage;
    if (bundle?.resourceType !== 'Bundle') {
      throw unavailable(`The FHIR server's answer to ${description} is not a Bundle.`);
    }
    if (Array.isArray(bundle.entry)) entries.push(...(bundle.entry as unknown[]));
    const next = (Array.isArray(bundle.link) ? bundle.link : []).find(
      (link) => link.relation === 'next',
    )?.url;
    url =
      typeof next === 'string' && URL.canParse(next) && new URL(next).origin === base.origin
        ? new URL(next)
        : undefined;
  }
  return { resourceType: 'Bundle', type: 'searchset', entry: entries };
}

export async function fetchMissingPrefetch(options: {
  fhirServer: string;
  accessToken: string;
  patientId: string;
  keys: readonly PrefetchKey[];
}): Promise<Partial<Record<PrefetchKey, unknown>>> {
  const base = new URL(
    options.fhirServer.endsWith('/') ? options.fhirServer : `${options.fhirServer}/`,
  );
  const fetched = await Promise.all(
    options.keys.map(async (key) => {
      const url = new URL(resolvedTemplate(key, options.patientId), base);
      const value =
        key === 'patient'
          ? await getJson(url, options.accessToken, what[key])
          : await readSearch(url, base, options.accessToken, what[key]);
      return [key, value] as const;
    }),
  );
  return Object.fromEntries(fetched);
}
