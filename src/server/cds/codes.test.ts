import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONDITIONS } from '../../engine/index.ts';
import { CONDITION_CODES, CURRENT_SMOKER_CODES, NON_SMOKER_CODES } from './codes.ts';

/** The interoperability docs, wherever the CDS Hooks sections are (they may be merged). */
function interopDocs(): string {
  const docs = path.resolve(import.meta.dirname, '../../../docs');
  return ['INTEROP-cds.md', 'INTEROP.md']
    .map((name) => path.join(docs, name))
    .filter((file) => fs.existsSync(file))
    .map((file) => fs.readFileSync(file, 'utf8'))
    .join('\n');
}

describe('the CDS code tables', () => {
  it('are listed whole in the docs', () => {
    const docs = interopDocs();
    const codes = [
      ...CURRENT_SMOKER_CODES.map((entry) => entry.code),
      ...NON_SMOKER_CODES.map((entry) => entry.code),
      ...CONDITIONS.flatMap((condition) => [
        ...CONDITION_CODES[condition].snomed.map((entry) => entry.code),
        ...CONDITION_CODES[condition].icd10.map((entry) => entry.categories),
      ]),
    ];
    expect(codes.filter((code) => !new RegExp(`\\b${code}\\b`).test(docs))).toEqual([]);
  });

  it('give each code one condition and a reason', () => {
    const seen = new Map<string, string>();
    for (const condition of CONDITIONS) {
      for (const entry of CONDITION_CODES[condition].snomed) {
        expect(seen.get(entry.code), entry.code).toBeUndefined();
        seen.set(entry.code, condition);
        expect(entry.reason.length).toBeGreaterThan(0);
      }
    }
  });
});
