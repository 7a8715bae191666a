import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AssessmentResult, ConditionRules, RuleSet } from '../engine/index.ts';
import { CONDITIONS, DEFAULT_RULE_SET, score } from '../engine/index.ts';
import { patientArbitrary } from '../engine/testing/arbitraries.ts';
import { ResultJsonWriter } from './score-result-json.ts';

/** What the writer must write: JSON.stringify of each result, a line each. */
function expectedText(results: readonly AssessmentResult[]): string {
  return results.map((result) => `${JSON.stringify(result)}\n`).join('');
}

function written(writer: ResultJsonWriter, results: readonly AssessmentResult[]): string {
  for (const result of results) writer.write(result);
  return writer.take();
}

/** Rule set 2.0 with other names and weights: strings to escape, numbers of every kind. */
const ruleSetArbitrary: fc.Arbitrary<RuleSet> = fc
  .record({
    names: fc.array(fc.string({ unit: 'binary', maxLength: 12 }), { minLength: 40, maxLength: 40 }),
    weights: fc.array(
      fc.oneof(fc.double(), fc.integer(), fc.constantFrom(0.1, 0.2, -0, 1e21, 1e-7)),
      { minLength: 40, maxLength: 40 },
    ),
    version: fc.string({ unit: 'grapheme', maxLength: 6 }),
  })
  .map(({ names, weights, version }) => {
    let next = 0;
    const take = () => next++ % 40;
    const conditions = Object.fromEntries(
      CONDITIONS.map((condition): [string, ConditionRules] => {
        const rules = DEFAULT_RULE_SET.conditions[condition];
        return [
          condition,
          {
            ...rules,
            threshold: weights[take()] ?? 0,
            managementCap: weights[take()] ?? 0,
            symptoms: rules.symptoms.map((symptom) => {
              const index = take();
              return { ...symptom, name: names[index] ?? '', weight: weights[index] ?? 0 };
            }),
            riskFactors: rules.riskFactors.map((factor) => {
              const index = take();
              return { ...factor, name: names[index] ?? '', weight: weights[index] ?? 0 };
            }),
          },
        ];
      }),
    );
    return { ...DEFAULT_RULE_SET, version, conditions: conditions as RuleSet['conditions'] };
  });

describe('ResultJsonWriter', () => {
  it('writes the text of JSON.stringify for every input, line by line', () => {
    const writer = new ResultJsonWriter();
    fc.assert(
      fc.property(fc.array(patientArbitrary, { maxLength: 10 }), (inputs) => {
        const results = inputs.map((input) => score(input));
        expect(written(writer, results)).toBe(expectedText(results));
      }),
      { numRuns: 200 },
    );
  });

  it('writes any string and any number as JSON.stringify does', () => {
    const writer = new ResultJsonWriter();
    fc.assert(
      fc.property(patientArbitrary, ruleSetArbitrary, (input, ruleSet) => {
        const result = score(input, ruleSet);
        expect(written(writer, [result])).toBe(expectedText([result]));
      }),
      { numRuns: 300 },
    );
  });

  it('stays exact once it has more values than it keeps', () => {
    // Weights of n/7 give thousands of distinct totals, past what the writer remembers.
    const writer = new ResultJsonWriter();
    const results = fc.sample(patientArbitrary, { numRuns: 6000, seed: 7 }).map((input, index) => {
      const weight = index / 7;
      const dm2: ConditionRules = DEFAULT_RULE_SET.conditions.DM2;
      const conditions: RuleSet['conditions'] = {
        ...DEFAULT_RULE_SET.conditions,
        DM2: { ...dm2, symptoms: dm2.symptoms.map((symptom) => ({ ...symptom, weight })) },
      };
      return score(input, { ...DEFAULT_RULE_SET, conditions });
    });
    const chunks: string[] = [];
    for (const [index, result] of results.entries()) {
      writer.write(result);
      if (index % 97 === 0) chunks.push(writer.take());
    }
    chunks.push(writer.take());
    expect(chunks.join('')).toBe(expectedText(results));
  });

  it('take hands over what was written and starts empty', () => {
    const writer = new ResultJsonWriter();
    const result = score({});
    writer.write(result);
    expect(writer.length).toBe(expectedText([result]).length);
    expect(writer.take()).toBe(expectedText([result]));
    expect(writer.length).toBe(0);
    expect(writer.take()).toBe('');
  });
});
