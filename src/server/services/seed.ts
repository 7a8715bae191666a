import {
  CONDITIONS,
  DEFAULT_RULE_SET,
  generateAssessmentCode,
  LAST_DOCTOR_VISIT_OPTIONS,
  PRESCRIPTION_DURATION_OPTIONS,
  score,
  SEVERITIES,
  type Condition,
} from '../../engine/index.ts';
import { everythingScope } from '../auth/scope.ts';
import { sql, type Insertable } from 'kysely';
import { DOCTOR_STATUSES, type DoctorStatus } from '../../shared/api/reviews.ts';
import type { AppContext } from '../context.ts';
import { insertRows } from '../db/repositories/bulk.ts';
import {
  agreementCountKey,
  KeptCountChanges,
  keptCountsRepository,
} from '../db/repositories/kept-counts.ts';
import type { Database } from '../db/schema.ts';
import { timeOrderedId } from '../ids.ts';
import { newAssessmentRows, type PatientInput } from './assessment-records.ts';
import { seedPatients } from './seed-patients.ts';
import { unitForNewRecord } from './record-units.ts';
import { facilityChooser, seededUnitRows, seededUnitTree } from './seed-units.ts';
import { orgUnitsRepository } from '../db/repositories/org-units.ts';

/** A small, fast, seedable generator (mulberry32), so that a seed always gives the same data. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Random bytes from the generator, so that a seed gives the same ids every time. */
function seededBytes(random: () => number): (size: number) => Uint8Array {
  return (size) => Uint8Array.from({ length: size }, () => Math.floor(random() * 256));
}

/**
 * localDate (server/time.ts) with its formatter built once: building an Intl.DateTimeFormat for
 * every record took most of the seeding time.
 */
function localDateIn(timeZone: string): (instant: Date) => string {
  const format = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  return (instant) => format.format(instant);
}

const noteTemplates: ReadonlyArray<(code: string) => string> = [
  () => 'Patient reports feeling well. Advised diet and exercise; review in 3 months.',
  () => 'BP 128/84, pulse 76. Metformin 500 mg twice daily, tolerating well. Phone 011-555-0142.',
  () => 'Follow-up booked for 2026-03-14. Discussed smoking cessation.',
  () => 'Known T2DM, E11.9. HbA1c requested (LOINC 4548-4).',
  () => 'Hypertension I10 on amlodipine 5 mg daily; BP 142/90 today.',
  () => 'Hyperlipidaemia E78.5, started atorvastatin (RX-20441). Lipid panel ordered.',
  () => 'Productive cough for 3 weeks, night sweats. Sputum for TB, query A15.0. CPT 87116.',
  () => 'Asthma J45.909, inhaler technique reviewed. Salbutamol NDC 0173-0682-20.',
  () => 'HIV B20 on ART, adherent. Viral load due. SNOMED 86406008.',
  (code) => `Repeat of ${code}; see previous assessment for baseline values.`,
  () => 'Fasting glucose 7.8 mmol/L on 2025-11-02; weight 92 kg, height 171 cm.',
  () => 'MRN 4471882 transferred from district clinic; LAB-55102 pending.',
];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

/**
 * The status a disagreeing doctor would give instead of the rules', or none: most name one (the
 * Doctor Agreement's kappa and the impact analysis compare them with the rules).
 */
function doctorStatusOf(random: () => number, ruleStatus: string | undefined): DoctorStatus | null {
  if (random() >= 0.7) return null;
  return pick(
    random,
    DOCTOR_STATUSES.filter((status) => status !== ruleStatus),
  );
}

/** Varied patient data: every condition and status, some answers missing (incomplete records). */
function patientData(random: () => number): PatientInput {
  const incomplete = random() < 0.08;
  const demographics: PatientInput['demographics'] = {
    ...(incomplete && random() < 0.5 ? {} : { age: 18 + Math.floor(random() * 70) }),
    ...(incomplete && random() < 0.3 ? {} : { gender: random() < 0.55 ? 'Female' : 'Male' }),
    ...(incomplete && random() < 0.5 ? {} : { height: Math.round(1500 + random() * 450) / 10 }),
    ...(incomplete && random() < 0.5 ? {} : { weight: Math.round(450 + random() * 800) / 10 }),
  };
  const symptoms: Record<string, Record<string, { present: boolean; severity?: string }>> = {};
  const management: Partial<Record<Condition, PatientInput['management'][Condition]>> = {};
  for (const condition of CONDITIONS) {
    const rules = DEFAULT_RULE_SET.conditions[condition];
    const answers: Record<string, { present: boolean; severity?: string }> = {};
    for (const symptom of rules.symptoms) {
      const present = random() < 0.3;
      if (!present) {
        if (random() < 0.5) answers[symptom.key] = { present: false };
        continue;
      }
      answers[symptom.key] =
        symptom.scale === 'severity'
          ? { present, severity: pick(random, SEVERITIES) }
          : symptom.scale === 'weightChange'
            ? { present, severity: random() < 0.8 ? 'loss' : 'gain' }
            : { present };
    }
    if (Object.keys(answers).length > 0) symptoms[condition] = answers;
    if (random() < 0.12) {
      management[condition] = {
        diagnosed: true,
        lastDoctorVisit: pick(random, LAST_DOCTOR_VISIT_OPTIONS),
        prescriptionDuration: pick(random, PRESCRIPTION_DURATION_OPTIONS),
      };
    } else if (random() < 0.3) {
      management[condition] = { diagnosed: false };
    }
  }
  return {
    demographics,
    riskFactors: {
      smoking: random() < 0.2,
      familyHistory: {
        DM2: random() < 0.25,
        Asthma: random() < 0.15,
        Hypertension: random() < 0.3,
        Hyperlipidaemia: random() < 0.2,
      },
      householdTBExposure: random() < 0.1,
    },
    // The generator draws only the catalogue's keys and scales.
    symptoms: symptoms,
    management,
  };
}

// The search index, live total and dates are kept by the database itself, from the assessments;
// the dashboard's kept counts are applied from the written rows (keptCountsOf). Seeded
// assessments are scored with the default rule set and activate none.
type SeededTable = Exclude<
  keyof Database,
  | 'assessment_search'
  | 'assessment_totals'
  | 'assessment_dates'
  | 'population_counts'
  | 'agreement_counts'
  | 'patient_follow_ups'
  | 'worklist_totals'
  | 'population_count_deltas'
  | 'agreement_count_deltas'
  | 'assessment_total_deltas'
  | 'worklist_total_deltas'
  | 'rule_set_activations'
  | 'cds_clients'
  | 'cds_jtis'
  | 'cds_client_fhir_servers'
  | 'user_second_factors'
  | 'second_factor_recovery_codes'
  | 'second_factor_challenges'
  | 'api_tokens'
  | 'fhir_clients'
  | 'fhir_client_jtis'
  | 'fhir_access_tokens'
  | 'oidc_sign_ins'
  | 'org_units'
  | 'user_units'
  | 'bulk_export_jobs'
  | 'bulk_export_chunks'
  | 'smart_launches'
>;
type Rows = { [T in SeededTable]: Insertable<Database[T]>[] };

function emptyRows(): Rows {
  return {
    users: [],
    sessions: [],
    login_throttle: [],
    audit_events: [],
    patients: [],
    patient_records: [],
    patient_record_words: [],
    assessments: [],
    symptoms: [],
    risk_factors: [],
    management: [],
    results: [],
    doctor_reviews: [],
  };
}

/**
 * What a batch adds to the kept counts (repositories/kept-counts.ts), as the services would
 * have added it record by record: the results of live assessments, and the decided rows of their
 * finalized reviews by the rules' status.
 */
function keptCountsOf(rows: Rows): KeptCountChanges {
  const counts = new KeptCountChanges();
  const live = new Map<string, { localDate: string; unitId: string }>();
  for (const assessment of rows.assessments) {
    // Every seeded assessment names its unit (seedAssessments); the type admits none for the
    // migration tests' rows alone.
    if (assessment.org_unit_id === undefined) throw new Error('A seeded assessment has no unit');
    if (assessment.deleted_at == null) {
      live.set(assessment.id, {
        localDate: assessment.created_local_date ?? '',
        unitId: assessment.org_unit_id,
      });
    }
  }
  const ruleStatus = new Map<string, string>();
  for (const result of rows.results) {
    const assessment = live.get(result.assessment_id);
    if (assessment === undefined) continue;
    ruleStatus.set(`${result.assessment_id} ${result.condition}`, result.risk_status);
    counts.addPopulation(
      {
        local_date: assessment.localDate,
        org_unit_id: assessment.unitId,
        condition: result.condition,
        risk_status: result.risk_status,
      },
      1,
    );
  }
  for (const review of rows.doctor_reviews) {
    if (review.locked !== true || review.decided !== true) continue;
    const status = ruleStatus.get(`${review.assessment_id} ${review.condition}`);
    const assessment = live.get(review.assessment_id);
    if (status === undefined || assessment === undefined) continue;
    counts.addAgreement(
      agreementCountKey(
        assessment.localDate,
        assessment.unitId,
        { ...review, doctor_status: review.doctor_status ?? null },
        status,
      ),
      1,
    );
  }
  return counts;
}

export interface SeedOptions {
  assessments: number;
  /**
   * Patient records the assessments belong to, with repeat visits (at most `assessments`);
   * without it, no assessment names a patient record.
   */
  patients?: number;
  seed: number;
  /**
   * Facilities to spread the records over, in a tree of their own (seed-units.ts) under the
   * unit the records would otherwise go to; each patient record and its assessments in one.
   * Without it, every record goes where a save of the user's would.
   */
  units?: number;
  /** The user recorded as creator, signer and reviewer of the seeded records. */
  user: { id: string; displayName: string };
  /** Records per transaction. */
  batchSize?: number;
  onProgress?: (written: number) => void;
}

const tablesInOrder = [
  'patient_records',
  'patient_record_words',
  'patients',
  'assessments',
  'symptoms',
  'risk_factors',
  'management',
  'results',
  'doctor_reviews',
] as const;

/**
 * SQLite's page cache while seeding, in KiB. With the default 2 MB, every insert into the
 * random-keyed indexes read pages back from the operating system: half the seeding time was
 * spent in the kernel.
 */
const seedingCacheKibibytes = 262_144;

async function withSeedingCache(context: AppContext, run: () => Promise<void>): Promise<void> {
  const db = context.database.db;
  if (context.database.engine !== 'sqlite') return run();
  const { rows } = await sql<{ cache_size: number }>`pragma cache_size`.execute(db);
  const previous = Number(rows[0]?.cache_size ?? -2000);
  await sql.raw(`pragma cache_size = -${seedingCacheKibibytes}`).execute(db);
  try {
    await run();
  } finally {
    await sql.raw(`pragma cache_size = ${previous}`).execute(db);
  }
}

/**
 * Writes realistic, varied assessments straight through the repositories, many per transaction:
 * all conditions and statuses, notes with and without codes, some signed off, reviewed, deleted;
 * with `patients`, each naming the patient record of the person seen (made at their first visit).
 */
export async function seedAssessments(context: AppContext, options: SeedOptions): Promise<void> {
  await withSeedingCache(context, () => writeAssessments(context, options));
  // The counts' deltas folded now, as a running server would within a second: a seeded database
  // read before a server has run otherwise adds up a delta per batch, or per assessment for the
  // live count on PostgreSQL.
  await keptCountsRepository.compact(context.database);
  // What autovacuum would do in time, done now. Its statistics: PostgreSQL's planner otherwise
  // keeps those of the empty tables (at 100,000 seeded records the history's count took 3.1 s
  // instead of 0.28 s). Its visibility map: until a page is marked all-visible, an index-only
  // scan reads the table too (a surname's patient search at 300,000 patients read 3,402 table
  // pages, 97 ms, instead of 72 index pages).
  if (context.database.engine === 'postgres') {
    await sql.raw(`vacuum analyze ${tablesInOrder.join(', ')}`).execute(context.database.db);
  }
}

/**
 * Stores the seed's tree of units (seed-units.ts) under `parentId`, reusing units whose codes are
 * taken, and returns a draw of one of its facilities, busier ones more often.
 */
async function seedFacilities(
  context: AppContext,
  random: () => number,
  facilities: number,
  parentId: string,
): Promise<() => string> {
  const db = context.database.db;
  const tree = seededUnitTree(random, facilities);
  const now = context.now();
  const bytes = seededBytes(random);
  const existing = await orgUnitsRepository.list(db);
  const { rows, ids } = seededUnitRows(tree, {
    topParentId: parentId,
    existingIds: new Map(existing.map((unit) => [unit.code_key, unit.id])),
    newId: () => timeOrderedId(now.getTime(), bytes),
    at: now.toISOString(),
  });
  await db.transaction().execute(async (trx) => {
    for (const row of rows) await orgUnitsRepository.insert(trx, row);
  });
  const choose = facilityChooser(tree);
  return () => ids[choose(random)] ?? parentId;
}

async function writeAssessments(context: AppContext, options: SeedOptions): Promise<void> {
  const random = seededRandom(options.seed);
  const batchSize = options.batchSize ?? 2000;
  const end = context.now().getTime();
  const span = 2 * 365 * 24 * 3_600_000;
  const start = end - span;
  const bytes = seededBytes(random);
  const localDate = localDateIn(context.config.timeZone);
  // The doctors' own statuses draw from a generator of their own, so that the rest of what a
  // seed gives is as it was before they were seeded.
  const reviewRandom = seededRandom(options.seed ^ 0x72657669);
  // The patients draw from a generator of their own, so that a seed without them is unchanged.
  const patientRandom = seededRandom(options.seed ^ 0x70617469);
  const patientBytes = seededBytes(patientRandom);
  const patients =
    options.patients === undefined
      ? undefined
      : seedPatients(patientRandom, {
          patients: options.patients,
          assessments: options.assessments,
          endLocalDate: localDate(new Date(end)),
        });
  // The seeded records go where a save of their author's would, or to the facilities of a tree
  // made there.
  const orgUnitId = await unitForNewRecord(context.database.db, everythingScope, {
    userId: options.user.id,
  });
  // The units draw from a generator of their own, so that a seed without them is unchanged.
  const unitRandom = seededRandom(options.seed ^ 0x756e6974);
  const facilityOf =
    options.units === undefined
      ? () => orgUnitId
      : await seedFacilities(context, unitRandom, options.units, orgUnitId);
  const recordUnits: string[] = [];
  const recordIds = Array.from(
    { length: options.patients ?? 0 },
    (): string | undefined => undefined,
  );
  let written = 0;
  while (written < options.assessments) {
    const rows = emptyRows();
    const count = Math.min(batchSize, options.assessments - written);
    for (let i = 0; i < count; i++) {
      // Over the last two years in the order they were made, as a clinic records them: the
      // history's order is then the order of the rows, as it is in a database in use.
      const createdMs = Math.floor(start + (span * (written + i + random())) / options.assessments);
      const created = new Date(createdMs);
      const createdLocalDate = localDate(created);
      const at = created.toISOString();
      const id = timeOrderedId(createdMs, bytes);
      const patientId = timeOrderedId(createdMs, bytes);
      const code = generateAssessmentCode(createdMs, random);
      const input = patientData(random);
      let recordId: string | null = null;
      let unitId: string;
      if (patients === undefined) {
        unitId = facilityOf();
      } else {
        const patient = patients.patientOf(written + i);
        recordId = recordIds[patient] ?? null;
        if (recordId === null) {
          recordId = timeOrderedId(createdMs, patientBytes);
          recordIds[patient] = recordId;
          recordUnits[patient] = facilityOf();
          const { record, words } = patients.record(
            patient,
            recordId,
            at,
            options.user.id,
            recordUnits[patient],
          );
          rows.patient_records.push(record);
          rows.patient_record_words.push(...words);
        }
        // A patient's assessments are done where their record is.
        unitId = recordUnits[patient] ?? orgUnitId;
        input.demographics = patients.measure(patient, createdLocalDate, input.demographics);
      }
      const result = score(input);
      const signedOff = random() < 0.3;
      const deleted = random() < 0.02;
      const notes = random() < 0.6 ? pick(random, noteTemplates)(code) : null;
      const made = newAssessmentRows({
        id,
        patientId,
        input,
        result,
        code,
        notes,
        at,
        localDate: createdLocalDate,
        createdBy: options.user.id,
        patientRecordId: recordId,
        orgUnitId: unitId,
        signedOffBy: signedOff ? options.user : undefined,
        deletedBy: deleted ? options.user.id : undefined,
        withRiskRank: false,
      });
      rows.patients.push(made.patient);
      rows.assessments.push(made.assessment);
      rows.symptoms.push(...made.symptoms);
      rows.risk_factors.push(made.riskFactors);
      rows.management.push(...made.management);
      rows.results.push(...made.results);
      if (random() < 0.1) {
        const locked = random() < 0.6;
        for (const condition of CONDITIONS) {
          const reviewId = timeOrderedId(createdMs, bytes);
          const agreed = random() < 0.8;
          const ruleStatus = made.results.find((row) => row.condition === condition)?.risk_status;
          rows.doctor_reviews.push({
            id: reviewId,
            assessment_id: id,
            condition,
            // A seeded doctor chose Agree or Disagree for every condition.
            decided: true,
            agreed,
            doctor_status: agreed ? null : doctorStatusOf(reviewRandom, ruleStatus),
            comments: random() < 0.2 ? 'Agree; repeat HbA1c, consider E11.9 if confirmed.' : '',
            created_at: at,
            reviewed_by: options.user.displayName,
            reviewed_by_user_id: options.user.id,
            locked,
          });
        }
      }
    }
    await context.database.db.transaction().execute(async (trx) => {
      for (const table of tablesInOrder) await insertRows(trx, table, rows[table]);
      await keptCountsRepository.apply(trx, keptCountsOf(rows));
    });
    written += count;
    options.onProgress?.(written);
  }
}
