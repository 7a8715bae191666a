import type { Condition } from '../../engine/index.ts';

/**
 * The code tables of the CDS Hooks service (issue 20): which codes in a record system's FHIR
 * resources answer which of the engine's questions. Data only; `prefetch-mapping.ts` reads them
 * and docs/INTEROP.md shows them.
 */

export const LOINC = 'http://loinc.org';
export const SNOMED_CT = 'http://snomed.info/sct';
/** The ICD-10 systems a Condition's coding may name (WHO's and the US clinical modification). */
export const ICD_10_SYSTEMS = [
  'http://hl7.org/fhir/sid/icd-10',
  'http://hl7.org/fhir/sid/icd-10-cm',
] as const;

/** The Observations read, by LOINC code. */
export const OBSERVATION_CODES = {
  height: '8302-2',
  weight: '29463-7',
  smoking: '72166-2',
} as const;

/**
 * Units of a height or weight's valueQuantity (its UCUM `code`, else its `unit`) and the factor to
 * centimetres or kilograms. A value in another unit is not read.
 */
export const HEIGHT_UNITS_TO_CM: Readonly<Record<string, number>> = {
  cm: 1,
  m: 100,
  mm: 0.1,
  '[in_i]': 2.54,
  in: 2.54,
};
export const WEIGHT_UNITS_TO_KG: Readonly<Record<string, number>> = {
  kg: 1,
  g: 0.001,
  '[lb_av]': 0.45359237,
  lb: 0.45359237,
  lbs: 0.45359237,
};

/**
 * The code system of rule-set versions, as the FHIR export names it (src/server/services/fhir.ts):
 * a card's source.topic carries the version it was scored under.
 */
export const RULE_SET_SYSTEM = 'urn:uuid:d8426f08-d8c2-44f8-a8d2-dff74700864a';

/** Observation statuses whose value stands (not preliminary, cancelled or entered in error). */
export const OBSERVATION_STATUSES_READ = ['final', 'amended', 'corrected'] as const;

export interface CodeEntry {
  code: string;
  display: string;
  /** Why the code answers the question: its place in SNOMED CT, or its meaning. */
  reason: string;
}

/** Tobacco smoking status (LOINC 72166-2) answers, SNOMED CT: current smokers. */
export const CURRENT_SMOKER_CODES: readonly CodeEntry[] = [
  { code: '77176002', display: 'Smoker', reason: 'smokes now' },
  { code: '449868002', display: 'Smokes tobacco daily', reason: 'smokes now' },
  { code: '428041000124106', display: 'Occasional tobacco smoker', reason: 'smokes now' },
  { code: '428071000124103', display: 'Heavy tobacco smoker', reason: 'smokes now' },
  { code: '428061000124105', display: 'Light tobacco smoker', reason: 'smokes now' },
];

/** Answers that say the patient does not smoke now. */
export const NON_SMOKER_CODES: readonly CodeEntry[] = [
  { code: '266919005', display: 'Never smoked tobacco', reason: 'has never smoked' },
  { code: '8517006', display: 'Ex-smoker', reason: 'does not smoke now' },
];

export interface ConditionCodes {
  /** SNOMED CT: the concept and the descendants read as the same diagnosis. */
  snomed: readonly CodeEntry[];
  /**
   * ICD-10 categories, matched by the start of the code (dots ignored): `E11` matches `E11.9`.
   * A range `B20-B24` covers every category between, both included.
   */
  icd10: readonly { categories: string; display: string }[];
}

const descendant = (parent: string) => `a descendant (is-a) of ${parent} in SNOMED CT`;

/** The codes that say a condition is diagnosed, for Conditions and for family histories. */
export const CONDITION_CODES: Readonly<Record<Condition, ConditionCodes>> = {
  DM2: {
    snomed: [
      { code: '44054006', display: 'Diabetes mellitus type 2', reason: 'the condition itself' },
      {
        code: '313436004',
        display: 'Type 2 diabetes mellitus without complication',
        reason: descendant('44054006'),
      },
      {
        code: '359642000',
        display: 'Diabetes mellitus type 2 in nonobese',
        reason: descendant('44054006'),
      },
      {
        code: '81531005',
        display: 'Diabetes mellitus type 2 in obese',
        reason: descendant('44054006'),
      },
      {
        code: '237599002',
        display: 'Insulin treated type 2 diabetes mellitus',
        reason: descendant('44054006'),
      },
    ],
    icd10: [{ categories: 'E11', display: 'Type 2 diabetes mellitus' }],
  },
  HIV: {
    snomed: [
      {
        code: '86406008',
        display: 'Human immunodeficiency virus infection',
        reason: 'the condition itself',
      },
      {
        code: '62479008',
        display: 'Acquired immune deficiency syndrome',
        reason: descendant('86406008') + ' (the late stage of the infection)',
      },
      {
        code: '111880001',
        display: 'Acute HIV infection',
        reason: descendant('86406008'),
      },
      {
        code: '165816005',
        display: 'Human immunodeficiency virus positive',
        reason: 'the finding that records an HIV infection on many problem lists',
      },
    ],
    icd10: [{ categories: 'B20-B24', display: 'Human immunodeficiency virus [HIV] disease' }],
  },
  TB: {
    snomed: [
      { code: '56717001', display: 'Tuberculosis', reason: 'the condition itself' },
      { code: '154283005', display: 'Pulmonary tuberculosis', reason: descendant('56717001') },
      {
        code: '423997002',
        display: 'Tuberculosis, extrapulmonary',
        reason: descendant('56717001'),
      },
    ],
    icd10: [{ categories: 'A15-A19', display: 'Tuberculosis' }],
  },
  Asthma: {
    snomed: [
      { code: '195967001', display: 'Asthma', reason: 'the condition itself' },
      { code: '233678006', display: 'Childhood asthma', reason: descendant('195967001') },
      { code: '389145006', display: 'Allergic asthma', reason: descendant('195967001') },
      { code: '370218001', display: 'Mild asthma', reason: descendant('195967001') },
      { code: '370219009', display: 'Moderate asthma', reason: descendant('195967001') },
      { code: '370221004', display: 'Severe asthma', reason: descendant('195967001') },
      { code: '427679007', display: 'Mild intermittent asthma', reason: descendant('195967001') },
      { code: '426979002', display: 'Mild persistent asthma', reason: descendant('195967001') },
      {
        code: '427295004',
        display: 'Moderate persistent asthma',
        reason: descendant('195967001'),
      },
      {
        code: '426656000',
        display: 'Severe persistent asthma',
        reason: descendant('195967001'),
      },
    ],
    icd10: [{ categories: 'J45', display: 'Asthma' }],
  },
  Hypertension: {
    snomed: [
      {
        code: '38341003',
        display: 'Hypertensive disorder, systemic arterial',
        reason: 'the condition itself',
      },
      { code: '59621000', display: 'Essential hypertension', reason: descendant('38341003') },
      {
        code: '1201005',
        display: 'Benign essential hypertension',
        reason: descendant('38341003') + ' (through essential hypertension)',
      },
      { code: '10725009', display: 'Benign hypertension', reason: descendant('38341003') },
      { code: '70272006', display: 'Malignant hypertension', reason: descendant('38341003') },
      { code: '31992008', display: 'Secondary hypertension', reason: descendant('38341003') },
    ],
    icd10: [{ categories: 'I10-I15', display: 'Hypertensive diseases' }],
  },
  Hyperlipidaemia: {
    snomed: [
      { code: '55822004', display: 'Hyperlipidemia', reason: 'the condition itself' },
      { code: '13644009', display: 'Hypercholesterolemia', reason: descendant('55822004') },
      {
        code: '267432004',
        display: 'Pure hypercholesterolemia',
        reason: descendant('55822004') + ' (through hypercholesterolemia)',
      },
      {
        code: '398036000',
        display: 'Familial hypercholesterolemia',
        reason: descendant('55822004') + ' (through hypercholesterolemia)',
      },
      { code: '302870006', display: 'Hypertriglyceridemia', reason: descendant('55822004') },
    ],
    icd10: [
      {
        categories: 'E78',
        display: 'Disorders of lipoprotein metabolism and other lipidaemias',
      },
    ],
  },
};

/** Condition clinical statuses that mean the condition is present now. */
export const ACTIVE_CLINICAL_STATUSES = ['active', 'recurrence', 'relapse'] as const;

/**
 * Condition verification statuses that do not make a diagnosis (an absent status is read as
 * confirmed: a problem list's entries often carry none).
 */
export const UNCONFIRMED_VERIFICATION_STATUSES = [
  'unconfirmed',
  'provisional',
  'differential',
  'refuted',
  'entered-in-error',
] as const;
