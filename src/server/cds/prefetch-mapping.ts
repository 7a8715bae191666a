import { z } from 'zod';
import {
  CONDITIONS,
  FAMILY_HISTORY_CONDITIONS,
  type Condition,
  type FamilyHistoryCondition,
  type Gender,
  type PatientData,
} from '../../engine/index.ts';
import { DEMOGRAPHIC_RANGES } from '../../shared/assessment-input.ts';
import { ageOn, birthDateProblem, patientNumberSchema } from '../../shared/api/patients.ts';
import {
  ACTIVE_CLINICAL_STATUSES,
  CONDITION_CODES,
  CURRENT_SMOKER_CODES,
  HEIGHT_UNITS_TO_CM,
  ICD_10_SYSTEMS,
  LOINC,
  NON_SMOKER_CODES,
  OBSERVATION_CODES,
  OBSERVATION_STATUSES_READ,
  SNOMED_CT,
  UNCONFIRMED_VERIFICATION_STATUSES,
  WEIGHT_UNITS_TO_KG,
} from './codes.ts';
import type { PrefetchKey } from './service-definition.ts';

/**
 * From a CDS Hooks call's FHIR resources to the engine's input (issue 20): pure, no I/O. Only the
 * fields read are checked; a resource that does not parse, is about another patient, or says
 * nothing the tables know is passed by, so what the record cannot tell stays unanswered.
 */

const coding = z.looseObject({
  system: z.string().optional(),
  code: z.string().optional(),
});
const codeableConcept = z.looseObject({ coding: z.array(coding).optional() });
const reference = z.looseObject({ reference: z.string().optional() });

const patientSchema = z.looseObject({
  resourceType: z.literal('Patient'),
  id: z.string().optional(),
  birthDate: z.string().optional(),
  gender: z.string().optional(),
  identifier: z
    .array(z.looseObject({ system: z.string().optional(), value: z.string().optional() }))
    .optional(),
  name: z
    .array(
      z.looseObject({
        use: z.string().optional(),
        text: z.string().optional(),
        family: z.string().optional(),
        given: z.array(z.string()).optional(),
      }),
    )
    .optional(),
});
export type FhirPatient = z.infer<typeof patientSchema>;

const observationSchema = z.looseObject({
  resourceType: z.literal('Observation'),
  status: z.string(),
  code: codeableConcept,
  subject: reference.optional(),
  effectiveDateTime: z.string().optional(),
  effectiveInstant: z.string().optional(),
  effectivePeriod: z
    .looseObject({ start: z.string().optional(), end: z.string().optional() })
    .optional(),
  issued: z.string().optional(),
  valueQuantity: z
    .looseObject({
      value: z.number().optional(),
      unit: z.string().optional(),
      code: z.string().optional(),
    })
    .optional(),
  valueCodeableConcept: codeableConcept.optional(),
});
type Observation = z.infer<typeof observationSchema>;

const conditionSchema = z.looseObject({
  resourceType: z.literal('Condition'),
  clinicalStatus: codeableConcept.optional(),
  verificationStatus: codeableConcept.optional(),
  code: codeableConcept.optional(),
  subject: reference.optional(),
});

const familyHistorySchema = z.looseObject({
  resourceType: z.literal('FamilyMemberHistory'),
  status: z.string().optional(),
  patient: reference.optional(),
  condition: z.array(z.looseObject({ code: codeableConcept })).optional(),
});

const bundleSchema = z.looseObject({
  resourceType: z.literal('Bundle'),
  entry: z.array(z.looseObject({ resource: z.unknown().optional() })).optional(),
});

type Coding = z.infer<typeof coding>;
type CodeableConcept = z.infer<typeof codeableConcept>;

/** What the call's prefetch holds per key: a resource or searchset Bundle, or null for none. */
export type PrefetchData = Readonly<Record<PrefetchKey, unknown>>;

/** The resources of a searchset Bundle (or a lone resource) that parse with the schema. */
function resourcesOf<T>(value: unknown, schema: z.ZodType<T>): T[] {
  const bundle = bundleSchema.safeParse(value);
  const candidates = bundle.success
    ? (bundle.data.entry ?? []).map((entry) => entry.resource)
    : [value];
  return candidates.flatMap((candidate) => {
    const parsed = schema.safeParse(candidate);
    return parsed.success ? [parsed.data] : [];
  });
}

/** Whether a reference names the patient in context (or names none, as a patient's own search). */
function isAbout(ref: { reference?: string | undefined } | undefined, patientId: string): boolean {
  const text = ref?.reference;
  if (text === undefined) return true;
  return text === `Patient/${patientId}` || text.endsWith(`/Patient/${patientId}`);
}

function codings(concept: CodeableConcept | undefined): Coding[] {
  return concept?.coding ?? [];
}

function hasCode(concept: CodeableConcept | undefined, system: string, code: string): boolean {
  return codings(concept).some((c) => c.system === system && c.code === code);
}

/** Whether an ICD-10 code falls in a category ('E11') or a range of them ('B20-B24'). */
export function icd10InCategories(code: string, categories: string): boolean {
  const normalized = code.toUpperCase().replaceAll('.', '').trim();
  const [first, last] = categories.split('-');
  if (first === undefined) return false;
  if (last === undefined) return normalized.startsWith(first);
  const category = normalized.slice(0, 3);
  return (
    category.length === 3 &&
    category[0] === first[0] &&
    /^[0-9]{2}$/.test(category.slice(1)) &&
    category >= first &&
    category <= last
  );
}

/** The conditions a code says, by the SNOMED CT and ICD-10 tables. */
export function conditionsCoded(concept: CodeableConcept | undefined): Set<Condition> {
  const found = new Set<Condition>();
  for (const c of codings(concept)) {
    if (c.code === undefined) continue;
    for (const condition of CONDITIONS) {
      const table = CONDITION_CODES[condition];
      const bySnomed =
        c.system === SNOMED_CT && table.snomed.some((entry) => entry.code === c.code);
      const byIcd10 =
        (ICD_10_SYSTEMS as readonly (string | undefined)[]).includes(c.system) &&
        table.icd10.some((entry) => icd10InCategories(c.code ?? '', entry.categories));
      if (bySnomed || byIcd10) found.add(condition);
    }
  }
  return found;
}

/** When an observation was made, as the record wrote it. */
function observedText(observation: Observation): string | undefined {
  return (
    observation.effectiveDateTime ??
    observation.effectiveInstant ??
    observation.effectivePeriod?.end ??
    observation.effectivePeriod?.start ??
    observation.issued
  );
}

/** When an observation was made, in milliseconds; undated ones sort first (oldest). */
function observedAt(observation: Observation): number {
  const text = observedText(observation);
  const time = text === undefined ? Number.NaN : Date.parse(text);
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
}

/** The observations of one LOINC code whose value stands, newest first. */
function observationsOf(observations: readonly Observation[], loincCode: string): Observation[] {
  return observations
    .filter(
      (o) =>
        (OBSERVATION_STATUSES_READ as readonly string[]).includes(o.status) &&
        hasCode(o.code, LOINC, loincCode),
    )
    .sort((a, b) => observedAt(b) - observedAt(a));
}

/** The day an observation was made, as the record wrote it (its date part), if it says. */
function observedOn(observation: Observation): string | undefined {
  return /^\d{4}(-\d{2}){0,2}/.exec(observedText(observation) ?? '')?.[0];
}

/** A value read from an observation, with the day it was made when the record says. */
export interface Dated<T> {
  value: T;
  date: string | undefined;
}

/** The newest quantity in a known unit, converted and within the engine's range; rounded to 0.1. */
function latestQuantity(
  observations: readonly Observation[],
  loincCode: string,
  units: Readonly<Record<string, number>>,
  range: { min: number; max: number },
): Dated<number> | undefined {
  for (const observation of observationsOf(observations, loincCode)) {
    const quantity = observation.valueQuantity;
    const unit = quantity?.code ?? quantity?.unit;
    if (quantity?.value === undefined || unit === undefined) continue;
    const factor = units[unit];
    if (factor === undefined) continue;
    const value = Math.round(quantity.value * factor * 10) / 10;
    if (value >= range.min && value <= range.max) return { value, date: observedOn(observation) };
  }
  return undefined;
}

/** The newest smoking status: true for a current smoker, false for never or ex, else unanswered. */
function smokingStatus(observations: readonly Observation[]): Dated<boolean> | undefined {
  const latest = observationsOf(observations, OBSERVATION_CODES.smoking)[0];
  if (latest === undefined) return undefined;
  const answer = latest.valueCodeableConcept;
  const date = observedOn(latest);
  if (CURRENT_SMOKER_CODES.some((entry) => hasCode(answer, SNOMED_CT, entry.code))) {
    return { value: true, date };
  }
  if (NON_SMOKER_CODES.some((entry) => hasCode(answer, SNOMED_CT, entry.code))) {
    return { value: false, date };
  }
  return undefined;
}

function genderOf(patient: FhirPatient | undefined): Gender | undefined {
  if (patient?.gender === 'male') return 'Male';
  if (patient?.gender === 'female') return 'Female';
  return undefined;
}

/** A full date of birth that can be (not in the future, at most 120 years back), else none. */
function birthDateOf(patient: FhirPatient | undefined, today: string): string | undefined {
  const birthDate = patient?.birthDate;
  if (birthDate === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(birthDate)) return undefined;
  if (Number.isNaN(Date.parse(`${birthDate}T00:00:00Z`))) return undefined;
  return birthDateProblem(birthDate, today) === undefined ? birthDate : undefined;
}

/** The Patient of the prefetch, when it parses and is the patient in context. */
export function prefetchedPatient(
  prefetch: PrefetchData,
  patientId: string,
): FhirPatient | undefined {
  const parsed = patientSchema.safeParse(prefetch.patient);
  if (!parsed.success) return undefined;
  if (parsed.data.id !== undefined && parsed.data.id !== patientId) return undefined;
  return parsed.data;
}

/** What of the record the input was made from, for the cards to say (issue 33). */
export interface RecordDataUsed {
  birthDate: string | undefined;
  age: number | undefined;
  gender: Gender | undefined;
  height: Dated<number> | undefined;
  weight: Dated<number> | undefined;
  smoking: Dated<boolean> | undefined;
  diagnosed: Condition[];
  familyHistory: FamilyHistoryCondition[];
}

/**
 * The engine's input from what the record holds, on the clinic's calendar day `today`. Symptoms
 * and household TB exposure are never in it: the record does not hold them.
 */
export function mapPrefetch(prefetch: PrefetchData, patientId: string, today: string): PatientData {
  return readRecord(prefetch, patientId, today).input;
}

/** The engine's input (as mapPrefetch) and the record data it was made from. */
export function readRecord(
  prefetch: PrefetchData,
  patientId: string,
  today: string,
): { input: PatientData; used: RecordDataUsed } {
  const patient = prefetchedPatient(prefetch, patientId);
  const birthDate = birthDateOf(patient, today);
  const gender = genderOf(patient);
  const observations = resourcesOf(prefetch.observations, observationSchema).filter((o) =>
    isAbout(o.subject, patientId),
  );
  const height = latestQuantity(
    observations,
    OBSERVATION_CODES.height,
    HEIGHT_UNITS_TO_CM,
    DEMOGRAPHIC_RANGES.height,
  );
  const weight = latestQuantity(
    observations,
    OBSERVATION_CODES.weight,
    WEIGHT_UNITS_TO_KG,
    DEMOGRAPHIC_RANGES.weight,
  );
  const smoking = smokingStatus(observations);

  const diagnosed = new Set<Condition>();
  for (const condition of resourcesOf(prefetch.conditions, conditionSchema)) {
    if (!isAbout(condition.subject, patientId)) continue;
    const clinical = codings(condition.clinicalStatus).map((c) => c.code);
    if (
      clinical.length > 0 &&
      !clinical.some((code) => (ACTIVE_CLINICAL_STATUSES as readonly unknown[]).includes(code))
    ) {
      continue;
    }
    const verification = codings(condition.verificationStatus).map((c) => c.code);
    if (
      verification.some((code) =>
        (UNCONFIRMED_VERIFICATION_STATUSES as readonly unknown[]).includes(code),
      )
    ) {
      continue;
    }
    for (const found of conditionsCoded(condition.code)) diagnosed.add(found);
  }

  const familyHistory: Partial<Record<FamilyHistoryCondition, boolean>> = {};
  for (const history of resourcesOf(prefetch.familyHistory, familyHistorySchema)) {
    if (!isAbout(history.patient, patientId) || history.status === 'entered-in-error') continue;
    for (const { code } of history.condition ?? []) {
      for (const found of conditionsCoded(code)) {
        if ((FAMILY_HISTORY_CONDITIONS as readonly Condition[]).includes(found)) {
          familyHistory[found as FamilyHistoryCondition] = true;
        }
      }
    }
  }

  const age = birthDate === undefined ? undefined : ageOn(birthDate, today);
  const demographics = {
    ...(age === undefined ? {} : { age }),
    ...(gender === undefined ? {} : { gender }),
    ...(height === undefined ? {} : { height: height.value }),
    ...(weight === undefined ? {} : { weight: weight.value }),
  };
  const riskFactors = {
    ...(smoking === undefined ? {} : { smoking: smoking.value }),
    ...(Object.keys(familyHistory).length === 0 ? {} : { familyHistory }),
  };
  const management = Object.fromEntries(
    [...diagnosed].map((condition) => [condition, { diagnosed: true }]),
  );
  return {
    input: {
      demographics,
      riskFactors,
      ...(diagnosed.size === 0 ? {} : { management }),
    },
    used: {
      birthDate,
      age,
      gender,
      height,
      weight,
      smoking,
      diagnosed: CONDITIONS.filter((condition) => diagnosed.has(condition)),
      familyHistory: FAMILY_HISTORY_CONDITIONS.filter(
        (condition) => familyHistory[condition] === true,
      ),
    },
  };
}

/** What a new patient record is made of, from the Patient; undefined when it has no usable number. */
export interface PatientRecordCandidate {
  number: string;
  name: string | null;
  birthDate: string | null;
  gender: Gender | null;
}

/**
 * The patient number a Patient names: the value of its identifier of the clinic's system, else
 * its first identifier with a value; undefined when that is not a valid patient number.
 */
export function patientNumberOf(patient: FhirPatient, idSystem: string): string | undefined {
  const identifiers = (patient.identifier ?? []).filter(
    (identifier) => identifier.value !== undefined && identifier.value.trim() !== '',
  );
  const chosen = identifiers.find((identifier) => identifier.system === idSystem) ?? identifiers[0];
  const parsed = patientNumberSchema.safeParse(chosen?.value);
  return parsed.success ? parsed.data : undefined;
}

function nameOf(patient: FhirPatient): string | null {
  const names = patient.name ?? [];
  const name = names.find((n) => n.use === 'official') ?? names.find((n) => n.use !== 'old');
  if (name === undefined) return null;
  const text = (name.text ?? [...(name.given ?? []), name.family ?? ''].join(' '))
    .replaceAll(/\s+/g, ' ')
    .trim();
  return text === '' ? null : text.slice(0, 200);
}

export function patientRecordCandidate(
  patient: FhirPatient,
  idSystem: string,
  today: string,
): PatientRecordCandidate | undefined {
  const number = patientNumberOf(patient, idSystem);
  if (number === undefined) return undefined;
  return {
    number,
    name: nameOf(patient),
    birthDate: birthDateOf(patient, today) ?? null,
    gender: genderOf(patient) ?? null,
  };
}
