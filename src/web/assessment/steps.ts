import type { Demographics, ManagementAnswers, SymptomAnswers } from '../../engine/index.ts';
import type { WizardStep } from '../components/assessment/wizardSteps.ts';
import { anyManagementRecorded, anySymptomRecorded } from './form.ts';

export const firstStep: WizardStep = 1;
export const resultsStep: WizardStep = 5;

/** What the step rules of spec section 4 read. */
export interface StepFacts {
  /** The valid demographic values. */
  demographics: Demographics;
  /** Step 1 asks for the unit where the assessment is done and none is chosen (unitChoice.ts). */
  unitMissing: boolean;
  symptoms: SymptomAnswers;
  management: ManagementAnswers;
  /** Results were calculated (step 4 finished) or the assessment is saved. */
  hasResults: boolean;
  signedOff: boolean;
}

/** Age above 0, a gender, height and weight above 0: what step 2 needs (spec 4). */
export function demographicsFilled(demographics: Demographics): boolean {
  const { age, gender, height, weight } = demographics;
  return (
    age !== undefined &&
    age > 0 &&
    gender !== undefined &&
    height !== undefined &&
    height > 0 &&
    weight !== undefined &&
    weight > 0
  );
}

/** Step 1 is done: the demographics filled and, when it is asked for, the unit chosen. */
function firstStepDone(facts: StepFacts): boolean {
  return demographicsFilled(facts.demographics) && !facts.unitMissing;
}

/**
 * Step access of spec 4: step 1 always; 2 with the demographics filled (and the unit chosen when
 * it is asked for); 3 and 4 as 2; 5 as 4 or when results exist. Once signed off only step 5 is
 * reachable.
 */
export function canOpenStep(facts: StepFacts, step: WizardStep): boolean {
  if (facts.signedOff) return step === resultsStep;
  switch (step) {
    case 1:
      return true;
    case 2:
    case 3:
    case 4:
      return firstStepDone(facts);
    case 5:
      return firstStepDone(facts) || facts.hasResults;
  }
}

/**
 * Completion ticks of spec 4: 1 when the demographics are filled (and the unit chosen); 2 always; 3 when any symptom is
 * recorded; 4 when any management is recorded; 5 when results exist.
 */
export function isStepComplete(facts: StepFacts, step: WizardStep): boolean {
  switch (step) {
    case 1:
      return firstStepDone(facts);
    case 2:
      return true;
    case 3:
      return anySymptomRecorded(facts.symptoms);
    case 4:
      return anyManagementRecorded(facts.management);
    case 5:
      return facts.hasResults;
  }
}

/**
 * Where a requested step lands: itself when it can be opened, otherwise step 5 for a signed-off
 * assessment and step 1 for any other (step 1 can always be opened).
 */
export function landingStep(facts: StepFacts, requested: WizardStep): WizardStep {
  if (canOpenStep(facts, requested)) return requested;
  return facts.signedOff ? resultsStep : firstStep;
}
