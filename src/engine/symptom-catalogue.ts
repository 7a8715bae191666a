import type { Condition, SymptomScale } from './types.ts';

/**
 * The questions the wizard asks (spec 3.5): per condition, each symptom's key and how it is
 * rated, in the order asked. The input contract is derived from it (`as const` keeps the keys and
 * scales as literal types), and every rule set must weigh exactly these symptoms in this order:
 * a rule set gives the questions weights, it does not change them.
 */
export const SYMPTOM_CATALOGUE = {
  DM2: [
    { key: 'fatigue', scale: 'severity' },
    { key: 'thirst', scale: 'severity' },
    { key: 'frequentUrination', scale: 'none' },
    { key: 'hunger', scale: 'severity' },
  ],
  HIV: [
    { key: 'weightLoss', scale: 'weightChange' },
    { key: 'fever', scale: 'severity' },
    { key: 'rash', scale: 'severity' },
  ],
  TB: [
    { key: 'coughOver14Days', scale: 'none' },
    { key: 'weightLoss', scale: 'weightChange' },
    { key: 'nightSweats', scale: 'severity' },
    { key: 'fever', scale: 'severity' },
  ],
  Asthma: [
    { key: 'coughOnOff', scale: 'none' },
    { key: 'wheezing', scale: 'severity' },
  ],
  Hypertension: [
    { key: 'headache', scale: 'severity' },
    { key: 'dizziness', scale: 'severity' },
    { key: 'palpitations', scale: 'severity' },
  ],
  // Asymptomatic: scored on risk factors, comorbidities and management only.
  Hyperlipidaemia: [],
} as const satisfies Record<
  Condition,
  readonly { readonly key: string; readonly scale: SymptomScale }[]
>;

/** One question of the catalogue. */
export type CatalogueSymptom = (typeof SYMPTOM_CATALOGUE)[Condition][number];
