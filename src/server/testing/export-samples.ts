import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { score, type PatientData } from '../../engine/index.ts';
import { orgUnitsRepository } from '../db/repositories/org-units.ts';
import type { Database } from '../db/schema.ts';
import { childRows, type PatientInput } from '../services/assessment-records.ts';

/** Four patients the export tests write and read back, each a different shape of record. */

/** A 62-year-old woman, BMI 31.2 (80 kg at 160 cm), family history of diabetes, thirsty and tired, hypertensive. */
export const woman62 = {
  demographics: { age: 62, gender: 'Female', height: 160, weight: 80 },
  riskFactors: { smoking: false, familyHistory: { DM2: true }, householdTBExposure: false },
  symptoms: {
    DM2: { thirst: { present: true, severity: 'moderate' }, fatigue: { present: true } },
    Asthma: { coughOnOff: { present: false } },
  },
  management: {
    Hypertension: { diagnosed: true, lastDoctorVisit: 'never', prescriptionDuration: '<4months' },
  },
} as const;
/** A long cough and severe night sweats with a household contact: high TB risk. */
export const man45 = {
  demographics: { age: 45, gender: 'Male', height: 180, weight: 80 },
  riskFactors: { householdTBExposure: true },
  symptoms: {
    TB: { coughOver14Days: { present: true }, nightSweats: { present: true, severity: 'severe' } },
  },
} as const;
/** Only the gender recorded: incomplete, several conditions 'Insufficient Data'. */
export const partial = { demographics: { gender: 'Female' } } as const;
/** A young smoker who coughs and wheezes: high Asthma risk. */
export const man30 = {
  demographics: { age: 30, gender: 'Male', height: 175, weight: 70 },
  riskFactors: { smoking: true },
  symptoms: {
    Asthma: { coughOnOff: { present: true }, wheezing: { present: true, severity: 'mild' } },
  },
} as const;

/** Inserts assessments straight into the tables, in batches inside one transaction. */
export async function insertAssessments(db: Kysely<Database>, count: number): Promise<void> {
  const templates = [woman62, man45, partial, man30].map((input: PatientData) => {
    const full: PatientInput = {
      demographics: input.demographics ?? {},
      riskFactors: input.riskFactors ?? {},
      symptoms: input.symptoms ?? {},
      management: input.management ?? {},
    };
    return { input: full, result: score(full) };
  });
  const batchSize = 250;
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  const main = await orgUnitsRepository.findMain(db);
  if (main === undefined) throw new Error('No MAIN unit');
  await db.transaction().execute(async (trx) => {
    for (let first = 0; first < count; first += batchSize) {
      const patients = [];
      const assessments = [];
      const children = [];
      for (let i = first; i < Math.min(count, first + batchSize); i++) {
        const { input, result } = templates[i % templates.length] ?? templates[0]!;
        const id = crypto.randomUUID();
        const patientId = crypto.randomUUID();
        const at = new Date(start + i * 60_000).toISOString();
        const d = input.demographics;
        patients.push({
          id: patientId,
          age: d.age ?? null,
          gender: d.gender ?? null,
          height: d.height ?? null,
          weight: d.weight ?? null,
          bmi: result.patientBMI,
          updated_at: at,
        });
        assessments.push({
          id,
          patient_id: patientId,
          assessment_code: `ASS-LOAD${i.toString(36).toUpperCase()}-TEST`,
          assessment_complete: result.assessmentComplete,
          total_score: result.totalScore,
          notes: `Load test note ${i}, with "quotes"`,
          created_at: at,
          updated_at: at,
          signed_off: i % 3 === 0,
          version: 1,
          search_text: id,
          org_unit_id: main.id,
        });
        children.push(childRows(id, input, result));
      }
      await trx.insertInto('patients').values(patients).execute();
      await trx.insertInto('assessments').values(assessments).execute();
      const symptoms = children.flatMap((c) => c.symptoms);
      if (symptoms.length > 0) await trx.insertInto('symptoms').values(symptoms).execute();
      await trx
        .insertInto('risk_factors')
        .values(children.map((c) => c.riskFactors))
        .execute();
      const management = children.flatMap((c) => c.management);
      if (management.length > 0) await trx.insertInto('management').values(management).execute();
      await trx
        .insertInto('results')
        .values(children.flatMap((c) => c.results))
        .execute();
    }
  });
}
