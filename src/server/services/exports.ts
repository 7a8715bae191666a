import { Readable } from 'node:stream';
import type { z } from 'zod';
import { CONDITIONS, DEFAULT_RULE_SET, ruleSetByVersion, score } from '../../engine/index.ts';
import type { Assessment } from '../../shared/api/assessments.ts';
import type { exportQuerySchema, ReportSection } from '../../shared/api/exports.ts';
import type { AppContext } from '../context.ts';
import { csvCell, csvRow } from '../csv.ts';
import {
  csvResultColumns,
  exportsRepository,
  type CsvRecord,
  type ExportRecord,
  type ExportSummary,
} from '../db/repositories/exports.ts';
import { orgUnitsRepository, type OrgUnitRow } from '../db/repositories/org-units.ts';
import { presentAssessment } from '../presenters/assessment.ts';
import { localDate } from '../time.ts';
import { storedPatientInput } from './assessment-records.ts';
import type { Requester } from '../auth/requester.ts';
import { scopeHolds, type Scope } from '../auth/scope.ts';
import { historyFilter } from './assessments.ts';
import { recordAudit } from './audit.ts';
import {
  assessmentResources,
  failedAssessmentOutcome,
  organizationsUpFrom,
  patientRecordResource,
  type LinkedPatient,
} from './fhir.ts';
import {
  assessmentSections,
  disclaimerSection,
  formatDateTime,
  renderSections,
  renderTitle,
  reportInfoSection,
  signOffLine,
  type ReportClock,
  type ReportReview,
} from './reports.ts';
import { formatBmi, formatScore } from '../../shared/display.ts';

type ExportQuery = z.output<typeof exportQuerySchema>;

/** A streamed download: its file name and the body, made as the rows are read. */
export interface ExportFile {
  fileName: string;
  body: Readable;
}

/** The spec's marker (section 8) for an entry whose details could not be computed. */
const detailedLoadFailed = 'Basic Data Only - Detailed Load Failed';

/** The 58 columns of decisions.md section 5, in order. */
const csvColumns = [
  'assessment_id',
  'assessment_code',
  'created_at',
  'updated_at',
  'age',
  'gender',
  'height_cm',
  'weight_kg',
  'bmi',
  'assessment_complete',
  'signed_off',
  'signed_off_at',
  'signed_off_by',
  'total_score',
  'notes',
  'review_locked',
  ...CONDITIONS.flatMap((condition) => csvResultColumns.map((column) => `${condition}_${column}`)),
];

function recordPages(
  context: AppContext,
  scope: Scope,
  query: ExportQuery,
  options: { markRepeatedPatients?: boolean } = {},
): AsyncIterable<Iterable<ExportRecord>> {
  return exportsRepository.recordPages(
    context.database.db,
    context.database.engine,
    scope,
    historyFilter(query, context.config.timeZone),
    options,
  );
}

/** A bulk export is audited when it starts: a download cut short was still handed out. */
async function auditBulkExport(context: AppContext, requester: Requester, file: string) {
  await recordAudit(context.database.db, {
    at: context.now(),
    actor: requester.user,
    action: 'export',
    target: { type: 'export', id: file },
    address: requester.address,
  });
}

/**
 * A download's body: the opening, each record as rendered, then the closing, in chunks of about
 * 64 KiB. Written one row at a time, a download spent more time passing small chunks to the
 * socket than making them; and records are rendered a page at a time, without waiting between.
 */
function downloadBody<T>(
  opening: string,
  pages: AsyncIterable<Iterable<T>>,
  render: (record: T) => string,
  closing = '',
): Readable {
  const chunkSize = 64 * 1024;
  async function* chunks() {
    let chunk = opening;
    for await (const page of pages) {
      for (const record of page) {
        chunk += render(record);
        if (chunk.length >= chunkSize) {
          yield chunk;
          chunk = '';
        }
      }
    }
    chunk += closing;
    if (chunk !== '') yield chunk;
  }
  return Readable.from(chunks());
}

function today(context: AppContext): string {
  return localDate(context.now(), context.config.timeZone);
}

/**
 * The record as the API shows it, results recomputed with its own rule set like a single read.
 * A bulk read carries neither the patient record nor the patient's previous assessment, so a
 * bulk report's entry keeps the spec's sections alone.
 */
export function presentRecord(record: ExportRecord): Assessment {
  const input = storedPatientInput(record);
  const ruleSet = ruleSetByVersion(record.results[0]?.rule_set_version ?? DEFAULT_RULE_SET.version);
  return presentAssessment(record, input, score(input, ruleSet));
}

/**
 * A stored figure at the precision the screens show it (spec 9.1), as a number: 35.15624999999999
 * is written 35.2 and 0.8250000000000001 as 0.825, without trailing zeros, like the Doctor
 * Agreement and impact CSVs, so that a spreadsheet reads a number (the screens' 0.8250 is the
 * same value).
 */
function figure(value: string | number | null | undefined, decimals: number) {
  return typeof value === 'number' ? Number(value.toFixed(decimals)) : value;
}

/** The decimals of each of csvResultColumns: none for the status and the factor count. */
const csvResultDecimals = csvResultColumns.map((column) =>
  column === 'comorbidity_score' ? 2 : column.endsWith('_score') ? 4 : undefined,
);

/** One CSV line in the order of csvColumns, made as one string: the export's hottest path. */
function csvLine({ assessment: a, results }: CsvRecord): string {
  let line =
    `${csvCell(a.id)},${csvCell(a.assessment_code)},${csvCell(a.created_at)},${csvCell(a.updated_at)},` +
    `${csvCell(a.age)},${csvCell(a.gender)},${csvCell(a.height)},${csvCell(a.weight)},${csvCell(figure(a.bmi, 1))},` +
    `${csvCell(a.assessment_complete)},${csvCell(a.signed_off)},` +
    `${csvCell(a.signed_off_at)},${csvCell(a.signed_off_by)},${csvCell(figure(a.total_score, 4))},` +
    `${csvCell(a.notes)},${csvCell(a.review_locked)}`;
  for (const condition of CONDITIONS) {
    const result = results.find((r) => r[0] === condition);
    for (let index = 1; index <= csvResultColumns.length; index++) {
      const decimals = csvResultDecimals[index - 1];
      const value = result?.[index];
      line += `,${csvCell(decimals === undefined ? value : figure(value, decimals))}`;
    }
  }
  return `${line}\r\n`;
}

/** Every live assessment matching the history's filter as CSV: stored values, one row each. */
export async function assessmentsCsv(
  context: AppContext,
  requester: Requester,
  query: ExportQuery,
): Promise<ExportFile> {
  await auditBulkExport(context, requester, 'assessments.csv');
  const pages = exportsRepository.csvPages(
    context.database.db,
    context.database.engine,
    requester.scope,
    historyFilter(query, context.config.timeZone),
  );
  return {
    fileName: `assessments-${today(context)}.csv`,
    body: downloadBody(csvRow(csvColumns), pages, csvLine),
  };
}

function percentOf(part: number, whole: number): string {
  return whole === 0 ? '0.0%' : `${((100 * part) / whole).toFixed(1)}%`;
}

function summarySection(summary: ExportSummary): ReportSection {
  const { count, complete, signedOff, averageTotalScore } = summary;
  return {
    heading: 'Summary Statistics',
    lines: [
      `Total assessments: ${count}`,
      `Complete: ${complete} (${percentOf(complete, count)})`,
      `Signed off: ${signedOff} (${percentOf(signedOff, count)})`,
      `Average total score: ${averageTotalScore === null ? 'n/a' : formatScore(averageTotalScore)}`,
    ],
  };
}

function filterLine(query: ExportQuery): string {
  const parts = [
    query.q === undefined || query.q === '' ? [] : [`search "${query.q}"`],
    query.from === undefined ? [] : [`from ${query.from}`],
    query.to === undefined ? [] : [`to ${query.to}`],
  ].flat();
  return `Filter: ${parts.length === 0 ? 'none (all assessments)' : parts.join(', ')}`;
}

/** What the list row itself says, for an entry whose details could not be computed. */
function basicDataSection(record: ExportRecord, timeZone: string): ReportSection {
  const { assessment, patient } = record;
  return {
    heading: 'Basic Data',
    lines: [
      `Assessment code: ${assessment.assessment_code ?? 'None'}`,
      `Assessment ID: ${assessment.id}`,
      `Created: ${formatDateTime(assessment.created_at, timeZone)}`,
      `Age: ${patient.age ?? 'Not recorded'}`,
      `Gender: ${patient.gender ?? 'Not recorded'}`,
      `BMI: ${formatBmi(patient.bmi)}`,
      `Status: ${assessment.assessment_complete ? 'Complete' : 'Incomplete'}`,
      signOffLine(assessment.signed_off_by, assessment.signed_off_at, timeZone),
      `Total score: ${formatScore(assessment.total_score)}`,
    ],
  };
}

/** The record's doctor review as a report shows it (a bulk report is for those who may read it). */
function reportReview(record: ExportRecord): ReportReview {
  // Every save writes all rows at once, so any row names the reviewer and the time.
  const first = record.reviews[0];
  return {
    locked: record.reviews.some((review) => review.locked),
    reviewedBy: first?.reviewed_by ?? null,
    reviewedAt: first?.created_at ?? null,
    reviews: record.reviews.map((review) => ({
      condition: review.condition,
      decided: review.decided,
      agreed: review.agreed,
      comments: review.comments,
      doctorStatus: review.doctor_status,
    })),
  };
}

function reportEntry(record: ExportRecord, number: number, clock: ReportClock): string {
  const label = `Assessment ${number}: ${record.assessment.assessment_code ?? record.assessment.id}`;
  let sections: ReportSection[];
  try {
    sections = assessmentSections(presentRecord(record), clock, reportReview(record));
  } catch {
    // One unreadable record must not cost the clinic the whole report (spec section 8).
    return `${renderTitle(`${label} - ${detailedLoadFailed}`)}${renderSections([basicDataSection(record, clock.timeZone)])}`;
  }
  return `${renderTitle(label)}${renderSections(sections)}`;
}

/**
 * The comprehensive text report: summary statistics first (one aggregate query over the same
 * filter), then every assessment's report, streamed, and the disclaimer once at the end.
 */
export async function assessmentsReportText(
  context: AppContext,
  requester: Requester,
  query: ExportQuery,
): Promise<ExportFile> {
  const summary = await exportsRepository.summary(
    context.database.db,
    context.database.engine,
    requester.scope,
    historyFilter(query, context.config.timeZone),
  );
  await auditBulkExport(context, requester, 'assessments.txt');
  const clock: ReportClock = { generatedAt: context.now(), timeZone: context.config.timeZone };
  let number = 0;
  return {
    fileName: `assessment-reports-${today(context)}.txt`,
    body: downloadBody(
      renderTitle('Comprehensive Assessment Reports') +
        renderSections([reportInfoSection(clock, [filterLine(query)]), summarySection(summary)]),
      recordPages(context, requester.scope, query),
      (record) => reportEntry(record, ++number, clock),
      renderSections([disclaimerSection]),
    ),
  };
}

/** The patient record a bulk FHIR record names, with its Patient only where first met. */
/** What a bulk FHIR file names its identifiers by, and the units its Patients name. */
interface FhirSystems {
  patient: string;
  orgUnit: string;
  units: ReadonlyMap<string, OrgUnitRow>;
  /** The units whose Organizations the file has written so far. */
  writtenUnits: Set<string>;
}

function linkedPatient(record: ExportRecord, identifierSystem: string): LinkedPatient | undefined {
  const patient = record.linkedPatient;
  if (patient === undefined) return undefined;
  return {
    record: {
      id: patient.id,
      number: patient.number,
      name: patient.name,
      birthDate: patient.birth_date,
      gender: patient.gender,
      orgUnitId: patient.org_unit_id,
      version: patient.version,
      updatedAt: patient.updated_at,
    },
    identifierSystem,
    included: !record.patientSeenBefore,
  };
}

/**
 * An assessment's FHIR resources, a line each; an OperationOutcome if they cannot be made; none
 * for an assessment whose patient record is deleted, which the read API answers 404 as if it
 * never were (every line of the file reads there under its own id).
 */
function fhirLines(record: ExportRecord, systems: FhirSystems): string {
  if (record.linkedPatient !== undefined && record.linkedPatient.deleted_at !== null) return '';
  const linked = linkedPatient(record, systems.patient);
  // A Patient written here brings the Organizations it names that the file does not have yet.
  const organizations =
    linked?.included === true
      ? organizationsUpFrom(
          linked.record.orgUnitId,
          systems.units,
          systems.writtenUnits,
          systems.orgUnit,
        )
      : [];
  let resources: object[];
  try {
    resources = [
      ...organizations,
      ...assessmentResources(
        presentRecord(record),
        record.reviews,
        { version: record.assessment.review_version, at: record.assessment.reviewed_at },
        linked,
      ),
    ];
  } catch {
    // The patient's other assessments in the file still refer to the Patient it was to bring.
    resources = [
      ...organizations,
      ...(linked?.included === true
        ? [patientRecordResource(linked.record, linked.identifierSystem)]
        : []),
      failedAssessmentOutcome(record.assessment.id, detailedLoadFailed),
    ];
  }
  return resources.map((resource) => `${JSON.stringify(resource)}\n`).join('');
}

/**
 * Every live assessment of a live patient record or of none as FHIR R4 bulk-data NDJSON: one
 * resource a line, with the read API's ids, references by type and id. An assessment whose
 * resources cannot be made is an OperationOutcome line instead. The Patient of a patient record
 * comes once in the file, before the resources of its newest assessment there; its other
 * assessments refer to it. The Organizations of its unit and the units above come once too,
 * before the first Patient that names them.
 */
export async function fhirNdjson(
  context: AppContext,
  requester: Requester,
  query: ExportQuery,
): Promise<ExportFile> {
  await auditBulkExport(context, requester, 'fhir.ndjson');
  const systems: FhirSystems = {
    patient: context.config.patientIdSystem,
    orgUnit: context.config.orgUnitIdSystem,
    // Only the units of the scope: an Organization's partOf may name the unit above it, which
    // the FHIR API does not show such a reader either.
    units: new Map(
      (await orgUnitsRepository.list(context.database.db))
        .filter((unit) => scopeHolds(requester.scope, unit.id))
        .map((unit) => [unit.id, unit]),
    ),
    writtenUnits: new Set(),
  };
  return {
    fileName: `assessments-fhir-${today(context)}.ndjson`,
    body: downloadBody(
      '',
      recordPages(context, requester.scope, query, { markRepeatedPatients: true }),
      (record) => fhirLines(record, systems),
    ),
  };
}
