import type {
  Bundle,
  CodeableConcept,
  Condition as FhirCondition,
  Meta,
  Observation,
  OperationOutcome,
  Organization,
  Patient,
  Reference,
  Resource,
  RiskAssessment,
} from '@medplum/fhirtypes';
import {
  CONDITION_DISPLAY_NAMES,
  RISK_STATUS_LABELS,
  type Condition,
  type ConditionResult,
  type RiskStatus,
  ruleSetByVersion,
} from '../../engine/index.ts';
import type { Assessment } from '../../shared/api/assessments.ts';
import type { AppContext } from '../context.ts';
import { exportsRepository, type ConditionReview } from '../db/repositories/exports.ts';
import { fhirReadsRepository } from '../db/repositories/fhir-reads.ts';
import { orgUnitsRepository, type OrgUnitRow } from '../db/repositories/org-units.ts';
import { patientRecordsRepository } from '../db/repositories/patient-records.ts';
import type { Requester } from '../auth/requester.ts';
import { scopeHolds } from '../auth/scope.ts';
import { getAssessment } from './assessments.ts';
import { recordAudit } from './audit.ts';
import { formatScore } from '../../shared/display.ts';

export type AssessmentResource = Patient | Observation | FhirCondition | RiskAssessment;
/** What a download carries: an assessment's resources and the Organizations its Patient names. */
export type ExportedResource = AssessmentResource | Organization;

/**
 * How one resource points at another, everywhere (read API, bulk NDJSON, single download): by
 * type and id, relative to the server's FHIR base, where each one reads.
 */
function reference<T extends Resource & { id: string }>(resource: T): Reference<T> {
  return { reference: `${resource.resourceType}/${resource.id}` };
}

/**
 * The product has no web domain of its own, so its code system for rule-set versions is named by
 * a fixed UUID, which FHIR accepts as a system URI.
 */
const ruleSetSystem = 'urn:uuid:d8426f08-d8c2-44f8-a8d2-dff74700864a';

const snomed = 'http://snomed.info/sct';
const icd10 = 'http://hl7.org/fhir/sid/icd-10';
const loinc = 'http://loinc.org';
const ucum = 'http://unitsofmeasure.org';
const riskProbability = 'http://terminology.hl7.org/CodeSystem/risk-probability';

const conditionCodes: Record<Condition, { snomed: string; snomedDisplay: string; icd10: string }> =
  {
    DM2: { snomed: '44054006', snomedDisplay: 'Diabetes mellitus type 2', icd10: 'E11' },
    HIV: {
      snomed: '86406008',
      snomedDisplay: 'Human immunodeficiency virus infection',
      icd10: 'B20',
    },
    TB: { snomed: '56717001', snomedDisplay: 'Tuberculosis', icd10: 'A15' },
    Asthma: { snomed: '195967001', snomedDisplay: 'Asthma', icd10: 'J45' },
    Hypertension: {
      snomed: '38341003',
      snomedDisplay: 'Hypertensive disorder, systemic arterial',
      icd10: 'I10',
    },
    Hyperlipidaemia: { snomed: '55822004', snomedDisplay: 'Hyperlipidemia', icd10: 'E78.5' },
  };

/** FALSE, MAYBE and TRUE map to a likelihood; DIAGNOSED and UNKNOWN predict none. */
const qualitativeRisks: Partial<Record<RiskStatus, { code: string; display: string }>> = {
  FALSE: { code: 'low', display: 'Low likelihood' },
  MAYBE: { code: 'moderate', display: 'Moderate likelihood' },
  TRUE: { code: 'high', display: 'High likelihood' },
};

const measurements = {
  age: { code: '30525-0', display: 'Age', unit: 'years', ucum: 'a', vitalSign: false },
  height: { code: '8302-2', display: 'Body height', unit: 'cm', ucum: 'cm', vitalSign: true },
  weight: { code: '29463-7', display: 'Body weight', unit: 'kg', ucum: 'kg', vitalSign: true },
  bmi: {
    code: '39156-5',
    display: 'Body mass index (BMI) [Ratio]',
    unit: 'kg/m2',
    ucum: 'kg/m2',
    vitalSign: true,
  },
} as const;
type Measurement = keyof typeof measurements;

/**
 * The id of one resource of an assessment, the same in the read API, the bulk NDJSON, the single
 * download and the CDS cards (issue 38): the assessment's id and what the resource is
 * (`{assessment}.DM2`, `{assessment}.bmi`, `{assessment}.patient`), which the read API resolves
 * back to the stored assessment. FHIR ids need only be unique per resource type, so the DM2
 * Condition and RiskAssessment share one. A patient record's Patient has the record's id.
 */
export function assessmentPartId(assessmentId: string, part: string): string {
  return `${assessmentId}.${part}`;
}

function conditionConcept(condition: Condition): CodeableConcept {
  const codes = conditionCodes[condition];
  return {
    coding: [
      { system: snomed, code: codes.snomed, display: codes.snomedDisplay },
      { system: icd10, code: codes.icd10 },
    ],
    text: CONDITION_DISPLAY_NAMES[condition],
  };
}

function observation(
  assessment: Assessment,
  meta: Meta,
  patient: Patient & { id: string },
  measurement: Measurement,
  value: number,
): Observation & { id: string } {
  const m = measurements[measurement];
  return {
    resourceType: 'Observation',
    id: assessmentPartId(assessment.id, measurement),
    meta,
    status: assessment.signedOff ? 'final' : 'preliminary',
    ...(m.vitalSign
      ? {
          category: [
            {
              coding: [
                {
                  system: 'http://terminology.hl7.org/CodeSystem/observation-category',
                  code: 'vital-signs',
                  display: 'Vital Signs',
                },
              ],
            },
          ],
        }
      : {}),
    code: { coding: [{ system: loinc, code: m.code, display: m.display }], text: m.display },
    subject: reference(patient),
    effectiveDateTime: assessment.createdAt,
    valueQuantity: { value, unit: m.unit, system: ucum, code: m.ucum },
  };
}

function rationale(result: ConditionResult): string {
  const label = RISK_STATUS_LABELS[result.riskStatus];
  const { components, details } = result;
  const status = {
    FALSE: `${label}: the factor count is below the threshold.`,
    MAYBE: `${label}: the factor count equals the threshold.`,
    TRUE: `${label}: the factor count is above the threshold.`,
    DIAGNOSED: `${label}: the condition is already diagnosed, so no risk is predicted.`,
    UNKNOWN: `${label}, so no risk is predicted: ${result.interpretation}`,
  }[result.riskStatus];
  return [
    status,
    `Factor count ${result.factorCount} against a threshold of ${details.threshold};`,
    `total score ${formatScore(result.totalScore)} (symptoms ${formatScore(components.symptomScore)},`,
    `risk factors ${formatScore(components.riskFactorScore)}, comorbidity ${formatScore(components.comorbidityScore)},`,
    `management ${formatScore(components.managementScore)}).`,
    'The score is a rule-based triage score, not a calibrated probability.',
  ].join(' ');
}

/** What the FHIR Patient of a patient record shows: the record as the clinic knows the person. */
export interface PatientRecordIdentity {
  id: string;
  number: string;
  name: string | null;
  /** YYYY-MM-DD. */
  birthDate: string | null;
  gender: 'Male' | 'Female' | null;
  /** The organisation unit the record is registered at: the Patient's managingOrganization. */
  orgUnitId: string;
  /** The record's version and last change: its Patient's meta. */
  version: number;
  updatedAt: string;
}

/** The writes of an assessment's doctor review: how many, and when the last was (null: none). */
export interface ReviewRevision {
  version: number;
  at: string | null;
}

/**
 * The meta of an assessment's resources. Their content comes from the assessment (each change
 * of which raises its version and update time) and, for the RiskAssessments' notes, from its
 * review (each write of which is counted): the version is the sum, the last update the later.
 * All resources of an assessment share it, so a client that has one version has them all.
 */
function assessmentMeta(assessment: Assessment, review: ReviewRevision): Meta {
  return {
    versionId: String(assessment.version + review.version),
    lastUpdated:
      review.at !== null && review.at > assessment.updatedAt ? review.at : assessment.updatedAt,
  };
}

/** The patient record an assessment names, for its FHIR resources. */
export interface LinkedPatient {
  record: PatientRecordIdentity;
  /** The identifier system of patient numbers (TRIAGE_PATIENT_ID_SYSTEM). */
  identifierSystem: string;
  /**
   * Whether the Patient is among the assessment's resources; false in a bulk file that has
   * already written it, where the resources only refer to it.
   */
  included: boolean;
}

const fhirGender = (gender: 'Male' | 'Female'): 'male' | 'female' =>
  gender === 'Female' ? 'female' : 'male';

/**
 * The Patient of a patient record: the patient number as an identifier, and the name, gender and
 * date of birth when known. Its id is the record's, so every assessment of the person, every
 * export of them and the read API name the same Patient.
 */
export function patientRecordResource(
  record: PatientRecordIdentity,
  identifierSystem: string,
): Patient & { id: string } {
  return {
    resourceType: 'Patient',
    id: record.id,
    meta: { versionId: String(record.version), lastUpdated: record.updatedAt },
    identifier: [{ system: identifierSystem, value: record.number }],
    ...(record.name === null ? {} : { name: [{ text: record.name }] }),
    ...(record.gender === null ? {} : { gender: fhirGender(record.gender) }),
    ...(record.birthDate === null ? {} : { birthDate: record.birthDate }),
    managingOrganization: { reference: `Organization/${record.orgUnitId}` },
  };
}

/**
 * The Organization of an organisation unit: its code as an identifier, its name, inactive once
 * closed, and its parent unit as partOf. Its id is the unit's, which every Patient registered
 * there names as its managingOrganization.
 */
export function organizationResource(
  unit: OrgUnitRow,
  identifierSystem: string,
): Organization & { id: string } {
  return {
    resourceType: 'Organization',
    id: unit.id,
    meta: { versionId: String(unit.version), lastUpdated: unit.updated_at },
    identifier: [{ system: identifierSystem, value: unit.code }],
    active: unit.closed_at === null,
    name: unit.name,
    ...(unit.parent_id === null ? {} : { partOf: { reference: `Organization/${unit.parent_id}` } }),
  };
}

/**
 * The Organizations a file must carry for a Patient of the unit to refer to nothing outside it:
 * the unit's and those of the units above it (partOf), top first, leaving out those already
 * written, which it marks written.
 */
export function organizationsUpFrom(
  unitId: string,
  units: ReadonlyMap<string, OrgUnitRow>,
  written: Set<string>,
  identifierSystem: string,
): Array<Organization & { id: string }> {
  const chain: Array<Organization & { id: string }> = [];
  for (let unit = units.get(unitId); unit !== undefined && !written.has(unit.id);) {
    written.add(unit.id);
    chain.unshift(organizationResource(unit, identifierSystem));
    unit = unit.parent_id === null ? undefined : units.get(unit.parent_id);
  }
  return chain;
}

/**
 * One assessment as FHIR R4 resources: the Patient, Observations of age, height, weight and
 * BMI, a Condition per diagnosed condition and a RiskAssessment per condition. The Patient of an
 * assessment that names no patient record shares the gender only; one that names a record has
 * the record's Patient, which every resource of the assessment has as its subject.
 */
export function assessmentResources(
  assessment: Assessment,
  reviews: readonly ConditionReview[],
  review: ReviewRevision,
  linked?: LinkedPatient,
): AssessmentResource[] {
  const meta = assessmentMeta(assessment, review);
  const status = assessment.signedOff ? 'final' : 'preliminary';
  const { age, gender, height, weight, bmi } = assessment.demographics;
  const patient: Patient & { id: string } =
    linked === undefined
      ? {
          resourceType: 'Patient',
          id: assessmentPartId(assessment.id, 'patient'),
          meta,
          ...(gender === undefined ? {} : { gender: fhirGender(gender) }),
        }
      : patientRecordResource(linked.record, linked.identifierSystem);

  const measured: Array<[Measurement, number | undefined]> = [
    ['age', age],
    ['height', height],
    ['weight', weight],
    // BMI is 0 when height or weight is missing: then there is nothing to report.
    ['bmi', bmi > 0 ? Math.round(bmi * 10) / 10 : undefined],
  ];
  const observations = measured.flatMap(([measurement, value]) =>
    value === undefined ? [] : [observation(assessment, meta, patient, measurement, value)],
  );

  const diagnosed = new Map<Condition, FhirCondition & { id: string }>();
  for (const result of assessment.results.conditions) {
    if (result.riskStatus !== 'DIAGNOSED') continue;
    diagnosed.set(result.condition, {
      resourceType: 'Condition',
      id: assessmentPartId(assessment.id, result.condition),
      meta,
      clinicalStatus: {
        coding: [
          { system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' },
        ],
      },
      verificationStatus: {
        coding: [
          {
            system: 'http://terminology.hl7.org/CodeSystem/condition-ver-status',
            code: 'confirmed',
          },
        ],
      },
      code: conditionConcept(result.condition),
      subject: reference(patient),
      recordedDate: assessment.createdAt,
    });
  }

  const ruleSet = ruleSetByVersion(assessment.results.ruleSetVersion);
  const method: CodeableConcept = {
    coding: [{ system: ruleSetSystem, code: ruleSet.version, display: ruleSet.name }],
    text: ruleSet.name,
  };
  const riskAssessments = assessment.results.conditions.map((result): RiskAssessment => {
    const qualitativeRisk = qualitativeRisks[result.riskStatus];
    const condition = diagnosed.get(result.condition);
    const comorbidities = ruleSet.conditions[result.condition].comorbidities.flatMap((other) => {
      const present = diagnosed.get(other);
      return present === undefined ? [] : [reference(present)];
    });
    const basis = [...observations.map(reference), ...comorbidities];
    const comments = reviews
      .filter((review) => review.condition === result.condition && review.comments.trim() !== '')
      .map((review) => ({ text: review.comments, authorString: review.reviewed_by }));
    return {
      resourceType: 'RiskAssessment',
      id: assessmentPartId(assessment.id, result.condition),
      meta,
      status,
      subject: reference(patient),
      occurrenceDateTime: assessment.createdAt,
      ...(condition === undefined ? {} : { condition: reference(condition) }),
      method,
      // FHIR allows no empty arrays: a patient with no measurements has no basis.
      ...(basis.length === 0 ? {} : { basis }),
      prediction: [
        {
          outcome: conditionConcept(result.condition),
          ...(qualitativeRisk === undefined
            ? {}
            : { qualitativeRisk: { coding: [{ system: riskProbability, ...qualitativeRisk }] } }),
          rationale: rationale(result),
        },
      ],
      ...(comments.length === 0 ? {} : { note: comments }),
    };
  });

  return [
    ...(linked?.included === false ? [] : [patient]),
    ...observations,
    ...diagnosed.values(),
    ...riskAssessments,
  ];
}

/**
 * Resources of one assessment as a Bundle of type collection. Each entry's fullUrl is where the
 * read API serves it (`{base}/RiskAssessment/{id}`), so the relative references inside resolve
 * to the entries (FHIR R4's Bundle rules) and to the read API alike.
 */
export function fhirBundle(
  resources: readonly ExportedResource[],
  timestamp: Date,
  base: string,
): Bundle {
  return {
    resourceType: 'Bundle',
    type: 'collection',
    timestamp: timestamp.toISOString(),
    entry: resources.map((resource) => ({
      fullUrl: `${base}/${resource.resourceType}/${resource.id ?? ''}`,
      resource,
    })),
  };
}

/** Stands in a bulk export for an assessment whose resources could not be made. */
export function failedAssessmentOutcome(assessmentId: string, reason: string): OperationOutcome {
  return {
    resourceType: 'OperationOutcome',
    id: assessmentPartId(assessmentId, 'outcome'),
    issue: [
      {
        severity: 'error',
        code: 'processing',
        diagnostics: `Assessment ${assessmentId}: ${reason}`,
      },
    ],
  };
}

/**
 * One assessment as a FHIR Bundle, for a user who may read it; audited as an export. `base` is
 * the server's FHIR base (`https://host/fhir`), which the entries' fullUrls begin with. An
 * assessment outside the requester's scope is answered 404, as if it did not exist.
 */
export async function loadAssessmentBundle(
  context: AppContext,
  requester: Requester,
  id: string,
  base: string,
): Promise<Bundle> {
  const assessment = await getAssessment(context, requester, id);
  const db = context.database.db;
  const { scope } = requester;
  const [reviews, review, record] = await Promise.all([
    exportsRepository.reviews(db, scope, assessment.id),
    fhirReadsRepository.reviewRevision(db, scope, assessment.id),
    assessment.patient === null
      ? undefined
      : patientRecordsRepository.find(db, requester.scope, assessment.patient.id),
  ]);
  const now = context.now();
  await recordAudit(context.database.db, {
    at: now,
    actor: requester.user,
    action: 'export',
    target: { type: 'assessment', id: assessment.id },
    address: requester.address,
  });
  const linked: LinkedPatient | undefined =
    record === undefined
      ? undefined
      : {
          record: {
            id: record.id,
            number: record.number,
            name: record.name,
            birthDate: record.birth_date,
            gender: record.gender,
            orgUnitId: record.org_unit_id,
            version: record.version,
            updatedAt: record.updated_at,
          },
          identifierSystem: context.config.patientIdSystem,
          included: true,
        };
  // The Patient's unit and those above it within the scope come too: the bundle refers to
  // nothing outside it but the parent of the scope's top unit, which the reader may not read.
  const organizations =
    record === undefined
      ? []
      : organizationsUpFrom(
          record.org_unit_id,
          new Map(
            (await orgUnitsRepository.list(db))
              .filter((unit) => scopeHolds(scope, unit.id))
              .map((unit) => [unit.id, unit]),
          ),
          new Set(),
          context.config.orgUnitIdSystem,
        );
  return fhirBundle(
    [...assessmentResources(assessment, reviews, review, linked), ...organizations],
    now,
    base,
  );
}
