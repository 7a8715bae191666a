import { z } from 'zod';
import {
  GENDERS,
  LAST_DOCTOR_VISIT_OPTIONS,
  PRESCRIPTION_DURATION_OPTIONS,
  SEVERITIES,
  SYMPTOM_CATALOGUE,
  WEIGHT_CHANGES,
} from '../engine/index.ts';
import type { CatalogueSymptom, Condition, PatientData } from '../engine/index.ts';

/** Error option of a strict object: names the unknown keys, leaves other issues to zod. */
function unknownKeys(what: string, where = '') {
  return {
    error: (issue: z.core.$ZodRawIssue) =>
      issue.code === 'unrecognized_keys'
        ? `Unknown ${what} ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}${where}`
        : undefined,
  };
}

const wholeNumber = { error: 'Invalid input: expected a whole number' };

/** Accepted ranges, inclusive: age in whole years, height in centimetres, weight in kilograms. */
export const DEMOGRAPHIC_RANGES = {
  age: { min: 0, max: 120 },
  height: { min: 50, max: 250 },
  weight: { min: 1, max: 500 },
} as const;
const { age, height, weight } = DEMOGRAPHIC_RANGES;

const demographicsSchema = z.strictObject(
  {
    age: z.number().int(wholeNumber).min(age.min).max(age.max).optional(),
    gender: z.enum(GENDERS).optional(),
    height: z.number().min(height.min).max(height.max).optional(),
    weight: z.number().min(weight.min).max(weight.max).optional(),
  },
  unknownKeys('demographic field'),
);

const riskFactorsSchema = z.strictObject(
  {
    smoking: z.boolean().optional(),
    familyHistory: z
      .strictObject(
        {
          DM2: z.boolean().optional(),
          Asthma: z.boolean().optional(),
          Hypertension: z.boolean().optional(),
          Hyperlipidaemia: z.boolean().optional(),
        },
        unknownKeys('family history condition'),
      )
      .optional(),
    householdTBExposure: z.boolean().optional(),
  },
  unknownKeys('risk factor'),
);

// A symptom without a severity scale accepts mild to severe, which scoring ignores (decisions 3).
const severityAnswerSchema = z.strictObject(
  { present: z.boolean(), severity: z.enum(SEVERITIES).optional() },
  unknownKeys('field'),
);
const weightChangeAnswerSchema = z.strictObject(
  { present: z.boolean(), severity: z.enum(WEIGHT_CHANGES).optional() },
  unknownKeys('field'),
);

type AnswerSchemaFor<Symptom extends CatalogueSymptom> = Symptom['scale'] extends 'weightChange'
  ? typeof weightChangeAnswerSchema
  : typeof severityAnswerSchema;

type SymptomAnswersShape<Symptoms extends readonly CatalogueSymptom[]> = {
  [Symptom in Symptoms[number] as Symptom['key']]: z.ZodOptional<AnswerSchemaFor<Symptom>>;
};

/** A strict object with one optional answer per symptom of the catalogue. */
function symptomAnswersSchema<const Symptoms extends readonly CatalogueSymptom[]>(
  condition: Condition,
  symptoms: Symptoms,
) {
  const shape: Record<string, z.ZodOptional<z.ZodType>> = {};
  for (const symptom of symptoms) {
    shape[symptom.key] = (
      symptom.scale === 'weightChange' ? weightChangeAnswerSchema : severityAnswerSchema
    ).optional();
  }
  // The loop builds exactly the mapped shape; TypeScript cannot follow a loop over a tuple.
  return z.strictObject(
    shape as SymptomAnswersShape<Symptoms>,
    unknownKeys('symptom', ` for ${condition}`),
  );
}

const symptomsSchema = z.strictObject(
  {
    DM2: symptomAnswersSchema('DM2', SYMPTOM_CATALOGUE.DM2).optional(),
    HIV: symptomAnswersSchema('HIV', SYMPTOM_CATALOGUE.HIV).optional(),
    TB: symptomAnswersSchema('TB', SYMPTOM_CATALOGUE.TB).optional(),
    Asthma: symptomAnswersSchema('Asthma', SYMPTOM_CATALOGUE.Asthma).optional(),
    Hypertension: symptomAnswersSchema('Hypertension', SYMPTOM_CATALOGUE.Hypertension).optional(),
    Hyperlipidaemia: symptomAnswersSchema(
      'Hyperlipidaemia',
      SYMPTOM_CATALOGUE.Hyperlipidaemia,
    ).optional(),
  } satisfies Record<Condition, z.ZodType>,
  unknownKeys('condition'),
);

const managementAnswerSchema = z.strictObject(
  {
    diagnosed: z.boolean(),
    lastDoctorVisit: z.enum(LAST_DOCTOR_VISIT_OPTIONS).optional(),
    prescriptionDuration: z.enum(PRESCRIPTION_DURATION_OPTIONS).optional(),
  },
  unknownKeys('field'),
);

const managementSchema = z.strictObject(
  {
    DM2: managementAnswerSchema.optional(),
    HIV: managementAnswerSchema.optional(),
    TB: managementAnswerSchema.optional(),
    Asthma: managementAnswerSchema.optional(),
    Hypertension: managementAnswerSchema.optional(),
    Hyperlipidaemia: managementAnswerSchema.optional(),
  } satisfies Record<Condition, z.ZodType>,
  unknownKeys('condition'),
);

/**
 * The in-app patient data of spec 3.2 as the server and the CLI accept it. Every part is optional
 * (missing means not answered); objects are strict, so an unknown condition, symptom or field is
 * refused with its name in the message.
 */
export const assessmentInputSchema = z.strictObject(
  {
    demographics: demographicsSchema.optional(),
    riskFactors: riskFactorsSchema.optional(),
    symptoms: symptomsSchema.optional(),
    management: managementSchema.optional(),
  },
  unknownKeys('field'),
) satisfies z.ZodType<PatientData>;

export type AssessmentInput = z.infer<typeof assessmentInputSchema>;

/** One line per issue, 'path.to.field: message', for the CLI and error responses. */
export function formatInputIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) =>
    issue.path.length === 0 ? issue.message : `${issue.path.join('.')}: ${issue.message}`,
  );
}
