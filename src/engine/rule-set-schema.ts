import { z } from 'zod';
import { SYMPTOM_CATALOGUE } from './symptom-catalogue.ts';
import {
  CONDITIONS,
  DEMOGRAPHIC_FIELDS,
  FAMILY_HISTORY_CONDITIONS,
  GENDERS,
  LAST_DOCTOR_VISIT_OPTIONS,
  PRESCRIPTION_DURATION_OPTIONS,
  SEVERITIES,
} from './types.ts';
import type { Condition, DemographicField, RiskFactorCriterion, RuleSet } from './types.ts';

/** The demographic fields a criterion reads: while one is missing the status may be UNKNOWN. */
const fieldsReadBy: Record<RiskFactorCriterion['kind'], readonly DemographicField[]> = {
  ageAtLeast: ['age'],
  ageBetween: ['age'],
  bmiAbove: ['height', 'weight'],
  gender: ['gender'],
  smoking: [],
  familyHistory: [],
  householdTBExposure: [],
};

/**
 * Builds the schema. Building zod schemas is most of what checking a rule set costs, so it
 * happens at the first check: a browser that only shows the dashboard never pays for it.
 */
function buildRuleSetSchema() {
  /**
   * Names are plain ASCII on purpose: one non-ASCII character makes every result string that holds
   * it a two-byte string, which made serializing results about three times slower.
   */
  const asciiName = z
    .string()
    .regex(/^[\x20-\x7e]+$/, 'Expected a non-empty name of plain ASCII characters');
  const key = z.string().regex(/^[A-Za-z][A-Za-z0-9]*$/, 'Expected a key of letters and digits');
  /** A version names a file and appears in URLs: letters, digits, dots and dashes. */
  const version = z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9.-]{0,63}$/, 'Expected letters, digits, dots and dashes');
  const nonNegative = z.number().nonnegative();

  /** An object with exactly one non-negative number per option. */
  function scoresPer<const Option extends string>(options: readonly Option[]) {
    return z.strictObject(
      Object.fromEntries(options.map((option) => [option, nonNegative])) as Record<
        Option,
        typeof nonNegative
      >,
    );
  }

  const criterionSchema = z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('ageAtLeast'), years: nonNegative }),
    z.strictObject({ kind: z.literal('ageBetween'), above: nonNegative, below: nonNegative }),
    z.strictObject({ kind: z.literal('bmiAbove'), bmi: nonNegative }),
    z.strictObject({ kind: z.literal('gender'), gender: z.enum(GENDERS) }),
    z.strictObject({ kind: z.literal('smoking') }),
    z.strictObject({
      kind: z.literal('familyHistory'),
      condition: z.enum(FAMILY_HISTORY_CONDITIONS),
    }),
    z.strictObject({ kind: z.literal('householdTBExposure') }),
  ]);

  function conditionRulesSchema(condition: Condition) {
    const catalogue: readonly { key: string; scale: string }[] = SYMPTOM_CATALOGUE[condition];
    return z
      .strictObject({
        threshold: nonNegative,
        managementCap: nonNegative,
        symptoms: z
          .array(
            z.strictObject({
              key,
              name: asciiName,
              weight: nonNegative,
              scale: z.enum(['severity', 'weightChange', 'none']),
            }),
          )
          .readonly(),
        prerequisiteSymptoms: z.array(key).readonly(),
        riskFactors: z
          .array(
            z.strictObject({
              key,
              name: asciiName,
              weight: nonNegative,
              criterion: criterionSchema,
            }),
          )
          .readonly(),
        demographicFieldsRead: z.array(z.enum(DEMOGRAPHIC_FIELDS)).readonly(),
        comorbidities: z.array(z.enum(CONDITIONS)).readonly(),
        lastDoctorVisitScores: scoresPer(LAST_DOCTOR_VISIT_OPTIONS),
        prescriptionDurationScores: scoresPer(PRESCRIPTION_DURATION_OPTIONS),
      })
      .superRefine((rules, context) => {
        // The wizard asks the catalogue's questions; a rule set only weighs them.
        const asked = catalogue.map((symptom) => `${symptom.key} (${symptom.scale})`).join(', ');
        const weighed = rules.symptoms.map((symptom) => `${symptom.key} (${symptom.scale})`);
        if (weighed.join(', ') !== asked) {
          const at = catalogue.findIndex(
            (symptom, index) =>
              rules.symptoms[index]?.key !== symptom.key ||
              rules.symptoms[index]?.scale !== symptom.scale,
          );
          context.addIssue({
            code: 'custom',
            path: ['symptoms', ...(at === -1 ? [] : [at])],
            message: `Expected the symptom catalogue's questions in order: ${asked || 'none'}; found ${weighed.join(', ') || 'none'}`,
          });
        }
        const keys = new Set(rules.symptoms.map((symptom) => symptom.key));
        rules.prerequisiteSymptoms.forEach((prerequisite, index) => {
          if (!keys.has(prerequisite)) {
            context.addIssue({
              code: 'custom',
              path: ['prerequisiteSymptoms', index],
              message: `Unknown symptom ${prerequisite} for ${condition}`,
            });
          }
        });
        const factorKeys = new Set<string>();
        rules.riskFactors.forEach((factor, index) => {
          if (factorKeys.has(factor.key)) {
            context.addIssue({
              code: 'custom',
              path: ['riskFactors', index, 'key'],
              message: `Duplicate risk factor ${factor.key}`,
            });
          }
          factorKeys.add(factor.key);
        });
        const read = [...new Set(rules.riskFactors.flatMap((f) => fieldsReadBy[f.criterion.kind]))];
        if ([...rules.demographicFieldsRead].sort().join() !== read.sort().join()) {
          context.addIssue({
            code: 'custom',
            path: ['demographicFieldsRead'],
            message: `Expected exactly the fields the risk factors read: ${read.join(', ') || 'none'}`,
          });
        }
        if (rules.comorbidities.includes(condition)) {
          context.addIssue({
            code: 'custom',
            path: ['comorbidities'],
            message: `A condition cannot be its own comorbidity`,
          });
        }
      });
  }

  return z.strictObject({
    version,
    name: asciiName,
    severityMultipliers: scoresPer(SEVERITIES),
    /** null: the answer is not counted at all. */
    weightChangeMultipliers: z.strictObject({
      loss: nonNegative.nullable(),
      gain: nonNegative.nullable(),
    }),
    unratedMultiplier: nonNegative,
    comorbidityScore: nonNegative,
    conditions: z.strictObject(
      Object.fromEntries(
        CONDITIONS.map((condition) => [condition, conditionRulesSchema(condition)]),
      ) as Record<Condition, ReturnType<typeof conditionRulesSchema>>,
    ),
  });
}

/** A rule set as data: the shape of RuleSet, every weight non-negative, the catalogue's symptoms. */
export const ruleSetSchema = z.lazy(buildRuleSetSchema) satisfies z.ZodType<RuleSet>;

/** One rule set file: its name (for messages) and its parsed JSON. */
export interface RuleSetFile {
  readonly fileName: string;
  readonly data: unknown;
}

/**
 * Validates every rule set file, in order, and returns the rule sets. Throws at the first
 * file at fault, naming it and the path of each fault (`2.0.json: conditions.DM2.symptoms.0.weight:
 * ...`), so that a malformed file stops the server's start and every test run.
 */
export function parseRuleSets(files: readonly RuleSetFile[]): readonly RuleSet[] {
  const versions = new Set<string>();
  return files.map(({ fileName, data }) => {
    const parsed = ruleSetSchema.safeParse(data);
    if (!parsed.success) {
      const faults = parsed.error.issues.map(
        (issue) => `${fileName}: ${issue.path.map(String).join('.') || '(file)'}: ${issue.message}`,
      );
      throw new Error(`Invalid rule set file ${fileName}:\n${faults.join('\n')}`);
    }
    const ruleSet = parsed.data;
    if (fileName !== `${ruleSet.version}.json`) {
      throw new Error(
        `${fileName}: version: The file of version ${ruleSet.version} must be named ${ruleSet.version}.json`,
      );
    }
    if (versions.has(ruleSet.version)) {
      throw new Error(`${fileName}: version: Duplicate rule set version ${ruleSet.version}`);
    }
    versions.add(ruleSet.version);
    return ruleSet;
  });
}
