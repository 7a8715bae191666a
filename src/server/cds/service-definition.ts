import { LOINC, OBSERVATION_CODES } from './codes.ts';

/** The one CDS Hooks service this product offers (issue 20). */
export const CDS_SERVICE_ID = 'chronic-disease-risk';

const observationCodes = Object.values(OBSERVATION_CODES)
  .map((code) => `${LOINC}|${code}`)
  .join(',');

/**
 * What the service asks the record system to prefetch, by key. A key the record system leaves out
 * is fetched from its FHIR server when the call names one (and a token), else the call is a 412.
 */
export const PREFETCH_TEMPLATES = {
  patient: 'Patient/{{context.patientId}}',
  observations: `Observation?patient={{context.patientId}}&code=${observationCodes}&_sort=-date`,
  conditions: 'Condition?patient={{context.patientId}}&clinical-status=active',
  familyHistory: 'FamilyMemberHistory?patient={{context.patientId}}',
} as const;
export type PrefetchKey = keyof typeof PREFETCH_TEMPLATES;
export const PREFETCH_KEYS = Object.keys(PREFETCH_TEMPLATES) as PrefetchKey[];

export const CDS_SERVICE = {
  hook: 'patient-view',
  id: CDS_SERVICE_ID,
  title: 'Chronic disease risk',
  description:
    "Scores the patient's risk of type 2 diabetes, HIV, TB, asthma, hypertension and hyperlipidaemia " +
    'from the record (age, gender, height, weight, smoking, diagnosed conditions and family ' +
    'history) under the active rule set, and answers a card for each condition at High or ' +
    'Moderate risk with a link to a full assessment.',
  prefetch: PREFETCH_TEMPLATES,
} as const;

/** A prefetch template with the context's patient id in place of its token. */
export function resolvedTemplate(key: PrefetchKey, patientId: string): string {
  return PREFETCH_TEMPLATES[key].replaceAll('{{context.patientId}}', encodeURIComponent(patientId));
}
