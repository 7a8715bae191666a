import {
  CONDITION_DISPLAY_NAMES,
  type ConditionRules,
  type DemographicField,
  type RiskFactorCriterion,
  type RuleSet,
  type SymptomScale,
} from '../../../engine/index.ts';

/**
 * How the Guidelines page words a rule set. Every figure comes from the rule set's data; the
 * words only say what the figure means.
 */

/** A figure as the rule set holds it: 0.85, 3, 1.33. */
export function ruleNumber(value: number): string {
  return String(value);
}

/** A multiplier: ×1.75. */
export function multiplierText(value: number): string {
  return `×${ruleNumber(value)}`;
}

/** When a risk factor applies, in words. */
export function criterionText(criterion: RiskFactorCriterion): string {
  switch (criterion.kind) {
    case 'ageAtLeast':
      return `Age ${ruleNumber(criterion.years)} or over`;
    case 'ageBetween':
      // No age is 0 or less, so a lower bound of 0 says nothing.
      return criterion.above <= 0
        ? `Age under ${ruleNumber(criterion.below)}`
        : `Age over ${ruleNumber(criterion.above)} and under ${ruleNumber(criterion.below)}`;
    case 'bmiAbove':
      return `BMI above ${ruleNumber(criterion.bmi)}`;
    case 'gender':
      return `Gender is ${criterion.gender}`;
    case 'smoking':
      return 'Smoking answered Yes';
    case 'familyHistory':
      return `Family history of ${CONDITION_DISPLAY_NAMES[criterion.condition]} answered Yes`;
    case 'householdTBExposure':
      return 'Household TB exposure answered Yes';
  }
}

/** How a symptom's answer is rated, with the multipliers of the rule set. */
export function scaleText(scale: SymptomScale, ruleSet: RuleSet): string {
  switch (scale) {
    case 'severity': {
      const { mild, moderate, severe } = ruleSet.severityMultipliers;
      return `Severity: mild ${multiplierText(mild)}, moderate ${multiplierText(moderate)}, severe ${multiplierText(severe)}`;
    }
    case 'weightChange': {
      const { loss, gain } = ruleSet.weightChangeMultipliers;
      return `Weight change: loss ${weightChangeText(loss)}, gain ${weightChangeText(gain)}`;
    }
    case 'none':
      return `Present or absent: ${multiplierText(ruleSet.unratedMultiplier)}`;
  }
}

/** A weight change multiplier; null means the answer is not counted at all. */
export function weightChangeText(multiplier: number | null): string {
  return multiplier === null ? 'not counted' : multiplierText(multiplier);
}

const demographicFieldNames: Record<DemographicField, string> = {
  age: 'age',
  gender: 'gender',
  height: 'height',
  weight: 'weight',
};

/** 'a', 'a or b', 'a, b or c'. */
function alternatives(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items.at(-1) ?? ''}`;
}

/** The condition's threshold and what the factor count makes of it. */
export function thresholdText(rules: ConditionRules): string {
  const threshold = ruleNumber(rules.threshold);
  return `Moderate Risk at ${threshold} factors present (symptoms and risk factors); fewer is Low Risk, more is High Risk.`;
}

/** Why a Low or Moderate status may read Insufficient Data, or null when nothing is read. */
export function missingFieldsText(rules: ConditionRules): string | null {
  if (rules.demographicFieldsRead.length === 0) return null;
  const fields = alternatives(rules.demographicFieldsRead.map((f) => demographicFieldNames[f]));
  return `While ${fields} is missing, a Low or Moderate Risk reads Insufficient Data.`;
}

/** The prerequisite of a condition's scoring, or null when it has none. */
export function prerequisiteText(rules: ConditionRules): string | null {
  if (rules.prerequisiteSymptoms.length === 0) return null;
  const names = rules.prerequisiteSymptoms.map(
    (key) => rules.symptoms.find((symptom) => symptom.key === key)?.name ?? key,
  );
  return `Scored only when ${alternatives(names)} is present (or the condition is diagnosed).`;
}

/** The page's own messages. */
export const guidelinesTexts = {
  activateTitle: (version: string) => `Make version ${version} active?`,
  activateConfirm: (title: string, version: string) =>
    `${title} (version ${version}) will become the active guidelines: new saves will be scored with it. Stored results keep the version they were scored with until their assessment is updated.`,
  activated: 'Guidelines version activated',
  activatedDetail: (title: string, version: string) =>
    `${title} (version ${version}) is now active; new saves are scored with it.`,
  noActivation: 'Active by default: no activation has been recorded',
  notActive: 'Not active',
} as const;
