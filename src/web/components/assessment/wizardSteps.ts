/** The step bar of spec 2.6, in the flow of decisions.md section 2. */
export const wizardSteps = [
  { step: 1, title: 'Demographics' },
  { step: 2, title: 'Risk Factors' },
  { step: 3, title: 'Symptoms' },
  { step: 4, title: 'Management' },
  { step: 5, title: 'Results' },
] as const;

export type WizardStep = (typeof wizardSteps)[number]['step'];

/** The step a `?step=` value names, or null for anything else. */
export function parseStep(value: string | null): WizardStep | null {
  const step = wizardSteps.find((s) => String(s.step) === value);
  return step === undefined ? null : step.step;
}
