import {
  CONDITION_DISPLAY_NAMES,
  RISK_STATUS_LABELS,
  type AssessmentResult,
  type Condition,
  type ConditionResult,
  type PatientData,
  type RuleSet,
} from '../../engine/index.ts';
import type { CdsCard } from '../../shared/api/cds-hooks.ts';
import { RULE_SET_SYSTEM } from './codes.ts';
import type { Dated, RecordDataUsed } from './prefetch-mapping.ts';

export const CARD_SOURCE_LABEL = 'Chronic Disease Risk Assessment System';
export const START_ASSESSMENT_LABEL = 'Start a full assessment';

/** The card of each status that gets one; the others (Low, Insufficient Data, Diagnosed) get none. */
export const CARD_INDICATORS = { TRUE: 'warning', MAYBE: 'info' } as const;

function hasCard(
  result: ConditionResult,
): result is ConditionResult & { riskStatus: keyof typeof CARD_INDICATORS } {
  return result.riskStatus in CARD_INDICATORS;
}

/** A weight or score as people write it: at most four decimals, no trailing zeros. */
function formatScore(value: number): string {
  return String(Number(value.toFixed(4)));
}

/** Markdown escaping for text from the rule set (names may hold '*', '_' or '<'). */
function markdownText(text: string): string {
  return text.replaceAll(/[\\`*_{}[\]<>()#+!|]/g, (character) => `\\${character}`);
}

const NOT_IN_RECORD = 'not in the record';

function dated<T>(value: Dated<T> | undefined, text: (value: T) => string): string {
  if (value === undefined) return NOT_IN_RECORD;
  return `${text(value.value)} (${value.date ?? 'undated'})`;
}

function conditionList(conditions: readonly Condition[]): string {
  return conditions.length === 0
    ? 'none found'
    : conditions.map((condition) => CONDITION_DISPLAY_NAMES[condition]).join(', ');
}

/**
 * What of the record the score was made from (issue 33), so that the clinician sees what was
 * read and what was not, and that symptoms cannot come from the record at all.
 */
function recordLines(used: RecordDataUsed): string[] {
  return [
    '**From the record**',
    '',
    `- Age: ${used.age === undefined ? NOT_IN_RECORD : `${used.age} (born ${used.birthDate ?? ''})`}`,
    `- Gender: ${used.gender ?? NOT_IN_RECORD}`,
    `- Height: ${dated(used.height, (cm) => `${formatScore(cm)} cm`)}`,
    `- Weight: ${dated(used.weight, (kg) => `${formatScore(kg)} kg`)}`,
    `- Smoking: ${dated(used.smoking, (smokes) => (smokes ? 'smokes' : 'does not smoke'))}`,
    `- Diagnosed conditions: ${conditionList(used.diagnosed)}`,
    `- Family history: ${conditionList(used.familyHistory)}`,
    '',
    'Symptoms cannot come from the record and none were counted: a full assessment asks them ' +
      'and may change the status.',
  ];
}

function detailOf(
  result: ConditionResult,
  input: PatientData,
  used: RecordDataUsed,
  ruleSet: RuleSet,
): string {
  const rules = ruleSet.conditions[result.condition];
  const lines = [
    `${result.factorCount} ${result.factorCount === 1 ? 'factor counts' : 'factors count'}; ` +
      `the threshold is ${formatScore(result.details.threshold)}.`,
    '',
    '**Risk factors that count**',
    '',
    ...(result.details.riskFactors.length === 0
      ? ['- none']
      : result.details.riskFactors.map(
          (factor) => `- ${markdownText(factor.name)} (weight ${formatScore(factor.weight)})`,
        )),
  ];
  const comorbidities = rules.comorbidities.filter(
    (other) => input.management?.[other]?.diagnosed === true,
  );
  if (comorbidities.length > 0) {
    lines.push(
      '',
      `Diagnosed comorbidities add ${formatScore(result.components.comorbidityScore)}: ` +
        comorbidities.map((other) => CONDITION_DISPLAY_NAMES[other]).join(', ') +
        '.',
    );
  }
  lines.push(
    '',
    markdownText(result.interpretation),
    '',
    ...recordLines(used),
    '',
    `Scored under rule set ${markdownText(ruleSet.version)} (${markdownText(ruleSet.name)}).`,
  );
  return lines.join('\n');
}

export type CdsCardLink = NonNullable<CdsCard['links']>[number];

/**
 * The card's link to a full assessment of the patient record: a SMART launch when the product
 * is a SMART app (the record system launches it for the patient, `appContext` naming the
 * assessment to start), else the wizard's address.
 */
export function assessmentLinkFor(
  base: string,
  patientRecordId: string,
  smartLaunchUrl: string | undefined,
): CdsCardLink {
  if (smartLaunchUrl !== undefined) {
    return {
      label: START_ASSESSMENT_LABEL,
      url: smartLaunchUrl,
      type: 'smart',
      appContext: JSON.stringify({ start: 'assessment', patientRecordId }),
    };
  }
  return {
    label: START_ASSESSMENT_LABEL,
    url: `${base}/assessments/new?patient=${encodeURIComponent(patientRecordId)}`,
    type: 'absolute',
  };
}

/** Whether any condition of a result gets a card. */
export function hasCards(result: AssessmentResult): boolean {
  return result.conditions.some(hasCard);
}

/**
 * One card per condition at High (`warning`) or Moderate (`info`), in the engine's order; a
 * condition already diagnosed, at Low or with too little known gets none.
 */
export function cardsFor(options: {
  result: AssessmentResult;
  input: PatientData;
  /** The record data the input was made from. */
  used: RecordDataUsed;
  ruleSet: RuleSet;
  /** How a full assessment of this patient starts; undefined when the patient has no record. */
  assessmentLink: CdsCardLink | undefined;
  /** The product's Guidelines page, which shows the rule sets. */
  guidelinesUrl: string;
  uuid: () => string;
}): CdsCard[] {
  const { result, input, used, ruleSet, assessmentLink } = options;
  return result.conditions.filter(hasCard).map((condition) => ({
    uuid: options.uuid(),
    summary: `${CONDITION_DISPLAY_NAMES[condition.condition]}: ${RISK_STATUS_LABELS[condition.riskStatus]}`,
    detail: detailOf(condition, input, used, ruleSet),
    indicator: CARD_INDICATORS[condition.riskStatus],
    source: {
      label: CARD_SOURCE_LABEL,
      url: options.guidelinesUrl,
      topic: { system: RULE_SET_SYSTEM, code: ruleSet.version, display: ruleSet.name },
    },
    ...(assessmentLink === undefined ? {} : { links: [assessmentLink] }),
  }));
}
