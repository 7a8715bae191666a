import type {
  AssessmentResult,
  ConditionResult,
  RiskFactorDetail,
  SymptomDetail,
} from './types.ts';

const COMMA = 0x2c;
const CLOSE_BRACE = 0x7d;
const NEWLINE = 0x0a;

/** Values a writer keeps the bytes of, per field; past this many it forgets them and starts over. */
const REMEMBERED_VALUES = 4096;
/** Pieces longer than this are copied natively; a loop is quicker for shorter ones. */
const LOOP_COPY_BYTES = 32;

/** The JSON bytes of a key's values already written, each with the key before it. */
class Field<Value extends string | number> {
  readonly before: string;
  readonly written = new Map<Value, Uint8Array>();

  constructor(before: string) {
    this.before = before;
  }

  /** The bytes of `before` and the value, as JSON.stringify writes the value. */
  json(value: Value): Uint8Array {
    let json = this.written.get(value);
    if (json === undefined) {
      // A number's JSON text does not depend on its sign when it is zero: -0 and 0 share a key.
      json = utf8(this.before + JSON.stringify(value));
      if (this.written.size >= REMEMBERED_VALUES) this.written.clear();
      this.written.set(value, json);
    }
    return json;
  }
}

/** A symptom or risk factor detail written before, with the numbers its bytes hold. */
interface WrittenDetail {
  readonly weight: number;
  readonly severityMultiplier: number;
  readonly contribution: number;
  readonly json: Uint8Array;
}

/** Details of one name differ only by their numbers, of which a rule set has a few per name. */
const DETAILS_PER_NAME = 8;

/**
 * Writes results as JSON Lines in UTF-8: each line is byte for byte what
 * `JSON.stringify(result)` gives for a result as `score` builds it (keys in the order `score`
 * sets them), several times faster. Nearly every value of a result comes from a small set (the
 * rule set's names and weights and their sums, the interpretation sentences), so the writer keeps
 * the bytes of each value it has written, with its key, and copies them the next time. Strings are
 * escaped as JSON.stringify escapes them.
 */
export class ResultJsonWriter {
  #bytes: Uint8Array;
  #length = 0;
  readonly #condition = new Field<string>('{"condition":');
  readonly #conditionTotal = new Field<number>(',"totalScore":');
  readonly #factorCount = new Field<number>(',"factorCount":');
  readonly #riskStatus = new Field<string>(',"riskStatus":');
  readonly #symptomScore = new Field<number>(',"components":{"symptomScore":');
  readonly #riskFactorScore = new Field<number>(',"riskFactorScore":');
  readonly #comorbidityScore = new Field<number>(',"comorbidityScore":');
  readonly #componentManagementScore = new Field<number>(',"managementScore":');
  readonly #managementScore = new Field<number>('},"managementScore":');
  readonly #symptomsAfterComponents = ascii('},"details":{"symptoms":[');
  readonly #symptoms = ascii(',"details":{"symptoms":[');
  readonly #symptomDetails = new Map<string, WrittenDetail[]>();
  readonly #riskFactors = ascii('],"riskFactors":[');
  readonly #riskFactorDetails = new Map<string, WrittenDetail[]>();
  readonly #threshold = new Field<number>('],"threshold":');
  readonly #managementCap = new Field<number>(',"managementCap":');
  readonly #interpretation = new Field<string>('},"interpretation":');
  readonly #conditionsOpen = ascii('{"conditions":[');
  readonly #patientBMI = ascii('],"patientBMI":');
  readonly #complete = ascii(',"assessmentComplete":true');
  readonly #incomplete = ascii(',"assessmentComplete":false');
  readonly #totalScore = new Field<number>(',"totalScore":');
  readonly #ruleSetVersion = new Field<string>(',"ruleSetVersion":');

  constructor(initialCapacity = 64 * 1024) {
    this.#bytes = new Uint8Array(initialCapacity);
  }

  /** Bytes written and not yet taken. */
  get byteLength(): number {
    return this.#length;
  }

  /** Appends the result's JSON text and a newline. */
  write(result: AssessmentResult): void {
    this.#raw(this.#conditionsOpen);
    const conditions = result.conditions;
    for (let index = 0; index < conditions.length; index++) {
      if (index > 0) this.#byte(COMMA);
      this.#writeCondition(conditions[index] as ConditionResult);
    }
    this.#raw(this.#patientBMI);
    // The patient's own number, which seldom comes back: not kept.
    this.#raw(utf8(JSON.stringify(result.patientBMI)));
    this.#raw(result.assessmentComplete ? this.#complete : this.#incomplete);
    this.#raw(this.#totalScore.json(result.totalScore));
    this.#raw(this.#ruleSetVersion.json(result.ruleSetVersion));
    this.#byte(CLOSE_BRACE);
    this.#byte(NEWLINE);
  }

  /** The bytes written since the last call, as a copy the caller owns; the writer starts empty. */
  take(): Uint8Array {
    const taken = this.#bytes.slice(0, this.#length);
    this.#length = 0;
    return taken;
  }

  #writeCondition(result: ConditionResult): void {
    this.#raw(this.#condition.json(result.condition));
    this.#raw(this.#conditionTotal.json(result.totalScore));
    this.#raw(this.#factorCount.json(result.factorCount));
    this.#raw(this.#riskStatus.json(result.riskStatus));
    const components = result.components;
    this.#raw(this.#symptomScore.json(components.symptomScore));
    this.#raw(this.#riskFactorScore.json(components.riskFactorScore));
    this.#raw(this.#comorbidityScore.json(components.comorbidityScore));
    this.#raw(this.#componentManagementScore.json(components.managementScore));
    // JSON.stringify leaves out a property whose value is undefined.
    if (result.managementScore === undefined) {
      this.#raw(this.#symptomsAfterComponents);
    } else {
      this.#raw(this.#managementScore.json(result.managementScore));
      this.#raw(this.#symptoms);
    }
    const details = result.details;
    const symptoms = details.symptoms;
    for (let index = 0; index < symptoms.length; index++) {
      if (index > 0) this.#byte(COMMA);
      this.#raw(symptomJson(this.#symptomDetails, symptoms[index] as SymptomDetail));
    }
    this.#raw(this.#riskFactors);
    const riskFactors = details.riskFactors;
    for (let index = 0; index < riskFactors.length; index++) {
      if (index > 0) this.#byte(COMMA);
      this.#raw(riskFactorJson(this.#riskFactorDetails, riskFactors[index] as RiskFactorDetail));
    }
    this.#raw(this.#threshold.json(details.threshold));
    if (details.managementCap !== undefined) {
      this.#raw(this.#managementCap.json(details.managementCap));
    }
    this.#raw(this.#interpretation.json(result.interpretation));
    this.#byte(CLOSE_BRACE);
  }

  /** Room for `count` more bytes. */
  #reserve(count: number): Uint8Array {
    const needed = this.#length + count;
    if (needed > this.#bytes.length) {
      const grown = new Uint8Array(Math.max(needed, this.#bytes.length * 2));
      grown.set(this.#bytes.subarray(0, this.#length));
      this.#bytes = grown;
    }
    return this.#bytes;
  }

  #byte(value: number): void {
    const bytes = this.#reserve(1);
    bytes[this.#length++] = value;
  }

  #raw(piece: Uint8Array): void {
    const bytes = this.#reserve(piece.length);
    let at = this.#length;
    if (piece.length > LOOP_COPY_BYTES) {
      bytes.set(piece, at);
      this.#length = at + piece.length;
      return;
    }
    for (let index = 0; index < piece.length; index++) bytes[at++] = piece[index] as number;
    this.#length = at;
  }
}

function symptomJson(written: Map<string, WrittenDetail[]>, symptom: SymptomDetail): Uint8Array {
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
  const json = utf8(JSON.stringify(symptom));
  remember(written, symptom.name, { ...symptom, json });
  return json;
}

function riskFactorJson(
  written: Map<string, WrittenDetail[]>,
  riskFactor: RiskFactorDetail,
): Uint8Array {
  const known = written.get(riskFactor.name);
  if (known !== undefined) {
    for (const detail of known) if (detail.weight === riskFactor.weight) return detail.json;
  }
  const json = utf8(JSON.stringify(riskFactor));
  remember(written, riskFactor.name, {
    weight: riskFactor.weight,
    severityMultiplier: 0,
    contribution: 0,
    json,
  });
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

function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (char) => char.charCodeAt(0));
}

/** A JSON text (well-formed UTF-16: JSON.stringify escapes lone surrogates) in UTF-8. */
function utf8(text: string): Uint8Array {
  const bytes: number[] = [];
  for (let index = 0; index < text.length; index++) {
    const code = text.codePointAt(index) ?? 0;
    if (code < 0x80) {
      bytes.push(code);
    } else if (code < 0x800) {
      bytes.push(0xc0 | (code >> 6), 0x80 | (code & 0x3f));
    } else if (code < 0x10000) {
      bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
    } else {
      index++;
      bytes.push(
        0xf0 | (code >> 18),
        0x80 | ((code >> 12) & 0x3f),
        0x80 | ((code >> 6) & 0x3f),
        0x80 | (code & 0x3f),
      );
    }
  }
  return Uint8Array.from(bytes);
}
