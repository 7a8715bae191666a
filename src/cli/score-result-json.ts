import type {
  AssessmentResult,
  ConditionResult,
  RiskFactorDetail,
  SymptomDetail,
} from '../engine/index.ts';

/** Values a writer keeps the JSON of, per key; past this many it forgets them and starts over. */
const REMEMBERED_VALUES = 4096;

/** Details of one name differ only by their numbers, of which a rule set has a few per name. */
const DETAILS_PER_NAME = 8;

/** The JSON of the values of one key already written, each with the text before it. */
class Field<Value extends string | number> {
  readonly #before: string;
  readonly #written = new Map<Value, string>();

  constructor(before: string) {
    this.#before = before;
  }

  /** The text before and the value as JSON.stringify writes it. */
  json(value: Value): string {
    let json = this.#written.get(value);
    if (json === undefined) {
      // -0 and 0 share a key, and JSON.stringify writes both as 0.
      json = this.#before + JSON.stringify(value);
      if (this.#written.size >= REMEMBERED_VALUES) this.#written.clear();
      this.#written.set(value, json);
    }
    return json;
  }
}

/** A symptom or risk factor detail written before, with the numbers its JSON holds. */
interface WrittenDetail {
  readonly weight: number;
  readonly severityMultiplier?: number;
  readonly contribution?: number;
  readonly json: string;
}

/**
 * Writes results as JSON Lines: each line is exactly what `JSON.stringify(result)` gives for a
 * result as `score` builds it (keys in the order `score` sets them), about twice as fast. Nearly
 * every value of a result comes from a small set (the rule set's names and weights and their sums,
 * the interpretation sentences), so the writer keeps the JSON of each value it has written, with
 * the key before it, and joins those pieces instead of serializing the value again.
 */
export class ResultJsonWriter {
  #text = '';
  readonly #condition = new Field<string>('{"condition":');
  readonly #conditionTotal = new Field<number>(',"totalScore":');
  readonly #factorCount = new Field<number>(',"factorCount":');
  readonly #riskStatus = new Field<string>(',"riskStatus":');
  readonly #symptomScore = new Field<number>(',"components":{"symptomScore":');
  readonly #riskFactorScore = new Field<number>(',"riskFactorScore":');
  readonly #comorbidityScore = new Field<number>(',"comorbidityScore":');
  readonly #componentManagementScore = new Field<number>(',"managementScore":');
  readonly #managementScore = new Field<number>('},"managementScore":');
  readonly #symptomDetails = new Map<string, WrittenDetail[]>();
  readonly #riskFactorDetails = new Map<string, WrittenDetail[]>();
  readonly #threshold = new Field<number>('],"threshold":');
  readonly #managementCap = new Field<number>(',"managementCap":');
  readonly #interpretation = new Field<string>('},"interpretation":');
  readonly #totalScore = new Field<number>(',"totalScore":');
  readonly #ruleSetVersion = new Field<string>(',"ruleSetVersion":');

  /** Characters written and not yet taken. */
  get length(): number {
    return this.#text.length;
  }

  /** Appends the result's JSON text and a newline. */
  write(result: AssessmentResult): void {
    let text = this.#text + '{"conditions":[';
    const conditions = result.conditions;
    for (let index = 0; index < conditions.length; index++) {
      if (index > 0) text += ',';
      text = this.#writeCondition(text, conditions[index] as ConditionResult);
    }
    // The patient's own number, which seldom comes back: not kept.
    text += `],"patientBMI":${JSON.stringify(result.patientBMI)}`;
    text += result.assessmentComplete
      ? ',"assessmentComplete":true'
      : ',"assessmentComplete":false';
    text += this.#totalScore.json(result.totalScore);
    text += this.#ruleSetVersion.json(result.ruleSetVersion);
    this.#text = `${text}}\n`;
  }

  /** The text written since the last call; the writer starts empty again. */
  take(): string {
    const taken = this.#text;
    this.#text = '';
    return taken;
  }

  #writeCondition(text: string, result: ConditionResult): string {
    text += this.#condition.json(result.condition);
    text += this.#conditionTotal.json(result.totalScore);
    text += this.#factorCount.json(result.factorCount);
    text += this.#riskStatus.json(result.riskStatus);
    const components = result.components;
    text += this.#symptomScore.json(components.symptomScore);
    text += this.#riskFactorScore.json(components.riskFactorScore);
    text += this.#comorbidityScore.json(components.comorbidityScore);
    text += this.#componentManagementScore.json(components.managementScore);
    // JSON.stringify leaves out a property whose value is undefined.
    if (result.managementScore === undefined) {
      text += '},"details":{"symptoms":[';
    } else {
      text += this.#managementScore.json(result.managementScore);
      text += ',"details":{"symptoms":[';
    }
    const details = result.details;
    const symptoms = details.symptoms;
    for (let index = 0; index < symptoms.length; index++) {
      if (index > 0) text += ',';
      text += symptomJson(this.#symptomDetails, symptoms[index] as SymptomDetail);
    }
    text += '],"riskFactors":[';
    const riskFactors = details.riskFactors;
    for (let index = 0; index < riskFactors.length; index++) {
      if (index > 0) text += ',';
      text += riskFactorJson(this.#riskFactorDetails, riskFactors[index] as RiskFactorDetail);
    }
    text += this.#threshold.json(details.threshold);
    if (details.managementCap !== undefined) {
      text += this.#managementCap.json(details.managementCap);
    }
    return `${text}${this.#interpretation.json(result.interpretation)}}`;
  }
}

function symptomJson(written: Map<string, WrittenDetail[]>, symptom: SymptomDetail): string {
  const known = written.get(symptom.name);
  if (known !== undefined) {
    for (const detail of known) {
      if (
        detail.weight === symptom.weight &&
        detail.severityMultiplier === symptom.severityMultiplier &&
        detail.contribution === symptom.contribution
      ) {
        return detail.json;
      }
    }
  }
  const json = JSON.stringify(symptom);
  remember(written, symptom.name, { ...symptom, json });
  return json;
}

function riskFactorJson(written: Map<string, WrittenDetail[]>, riskFactor: RiskFactorDetail) {
  const known = written.get(riskFactor.name);
  if (known !== undefined) {
    for (const detail of known) if (detail.weight === riskFactor.weight) return detail.json;
  }
  const json = JSON.stringify(riskFactor);
  remember(written, riskFactor.name, { weight: riskFactor.weight, json });
  return json;
}

function remember(written: Map<string, WrittenDetail[]>, name: string, detail: WrittenDetail) {
  const known = written.get(name);
  if (known === undefined) {
    if (written.size >= REMEMBERED_VALUES) written.clear();
    written.set(name, [detail]);
  } else if (known.length < DETAILS_PER_NAME) {
    known.push(detail);
  }
}
