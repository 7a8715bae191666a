import { describe, expect, it } from 'vitest';
import { contextAround, extractCodes, scanText } from './extract.ts';
import type { CodeMatch } from './types.ts';

function found(text: string): string[] {
  return extractCodes(text).map((match) => `${match.type} ${match.code} ${match.confidence}`);
}

function only(text: string): CodeMatch {
  const matches = extractCodes(text);
  expect(matches).toHaveLength(1);
  return matches[0]!;
}

describe('extractCodes finds each kind of code', () => {
  it.each([
    ['Seen for ASS-LTSGK4W0-7F2A today.', 'Assessment Code ASS-LTSGK4W0-7F2A high'],
    ['Dx E11.9, on metformin.', 'ICD-10 E11.9 high'],
    ['Known HTN I10.', 'ICD-10 I10 high'],
    ['Asthma J45.909 stable.', 'ICD-10 J45.909 high'],
    ['Old chart ICD-9 250.00.', 'ICD-9 250.00 high'],
    ['Long-term insulin V58.67.', 'ICD-9 V58.67 high'],
    ['Trulicity NDC 0002-1433-80 given.', 'NDC 0002-1433-80 medium'],
    ['Script RX-12345 renewed.', 'Medication Code RX-12345 medium'],
    ['Script MED-00991 renewed.', 'Medication Code MED-00991 medium'],
    ['Visit billed 99213.', 'CPT 99213 medium'],
    ['CPT 83036 for HbA1c.', 'CPT 83036 medium'],
    ['HbA1c > 9%: 3046F.', 'CPT 3046F medium'],
    ['HbA1c (LOINC 4548-4) 8.2%.', 'LOINC 4548-4 low'],
    ['SNOMED CT 44054006 recorded.', 'SNOMED CT 44054006 low'],
    ['Coded 44054006 |Type 2 diabetes mellitus| today.', 'SNOMED CT 44054006 low'],
    ['Label PID-000123 on the form.', 'Patient ID PID-000123 low'],
    ['MRN: 1234567 confirmed.', 'Patient ID MRN 1234567 low'],
    ['Patient ID 558812 confirmed.', 'Patient ID Patient ID 558812 low'],
    ['Bloods LAB-20240315-0042 sent.', 'Lab Code LAB-20240315-0042 low'],
    ['Referral REF-88213 sent.', 'Custom Code REF-88213 low'],
  ])('%s', (text, expected) => {
    expect(found(text)).toEqual([expected]);
  });

  it('gives the offsets of the code in the text', () => {
    const text = 'Dx: E11.65 and NDC 0002-1433-80.';
    for (const match of extractCodes(text)) {
      expect(text.slice(match.start, match.end)).toBe(match.code);
    }
  });

  it('finds codes in order and every repeat', () => {
    expect(found('E11.9, I10 and E78.5; remove duplicate E11.9.')).toEqual([
      'ICD-10 E11.9 high',
      'ICD-10 I10 high',
      'ICD-10 E78.5 high',
      'ICD-10 E11.9 high',
    ]);
  });
});

describe('look-alikes are not codes', () => {
  it.each([
    'Next visit 2024-03-15, then 15/03/2024.',
    'Call 011-555-0123 or 082 555 1934 or (011) 555-0123.',
    'Metformin 500 mg bd, insulin 20 units, atorvastatin 40mg nocte.',
    'BP 120/80, HR 88, RR 18, T 36.8, SpO2 97%.',
    'Glucose 250.00, cholesterol 240, temp 100.4F, weight 101.5 kg.',
    'HbA1c 8.2%, A1C target 7, CD4 350 cells/uL, VL 12500 copies/mL.',
    'Vitamin B12 low; N95 mask fitted; K10 score 28; coenzyme Q10 taken.',
    'T12 compression fracture; bed A14; room 210.',
    'COVID-19, PHQ-9, GAD-7, HLA-B5701, HIV-1, GLP-1RA, MAR-2024.',
    'Steps 10,000 per day, 1-2 puffs, 3-4 times a week, 230-380 L/min.',
    'Batch lot 2345-7 given at 14:30.',
    'Dx pending: temp 37.9, glucose 250.0 mg/dL.',
    'E11.9x and 250.00mg are glued to text.',
  ])('%s', (text) => {
    expect(extractCodes(text)).toEqual([]);
  });
});

describe('labels', () => {
  it('reads bare ICD-9 numbers only after an ICD-9 label or a Dx', () => {
    expect(found('ICD-9: 250.00, 401.9 and 272.4')).toEqual([
      'ICD-9 250.00 high',
      'ICD-9 401.9 high',
      'ICD-9 272.4 high',
    ]);
    expect(found('Dx 250.00 and 401.9')).toEqual(['ICD-9 250.00 high', 'ICD-9 401.9 high']);
    expect(found('Legacy code 401.9 (ICD-9).')).toEqual(['ICD-9 401.9 high']);
    expect(found('Result 401.9 today.')).toEqual([]);
  });

  it('ends a label at the end of its sentence', () => {
    expect(found('ICD-9 list reviewed. 401 patients attended.')).toEqual([]);
    expect(found('ICD-9 code on file\n250.00 glucose meter reading')).toEqual([]);
  });

  it('ends a Dx label at the first word that is not a code', () => {
    expect(found('Dx HTN, BP 160/100 and temp 100.4')).toEqual([]);
  });

  it('needs a CPT label for five digits outside the E/M visit codes', () => {
    expect(found('Ref 55218 booked.')).toEqual([]);
    expect(found('CPT 71046 chest X-ray.')).toEqual(['CPT 71046 medium']);
  });

  it('needs a SNOMED label or |term| for long numbers', () => {
    expect(found('Card 44054006 on file.')).toEqual([]);
  });

  it('reads V codes as ICD-9 unless an ICD-10 label is nearer', () => {
    expect(found('V58.67 noted.')).toEqual(['ICD-9 V58.67 high']);
    expect(found('ICD-10 V43.52XA car passenger.')).toEqual(['ICD-10 V43.52XA high']);
    expect(found('ICD-10: V58.67')).toEqual(['ICD-10 V58.67 high']);
  });

  it('reads dotless ICD-10 codes only after an ICD-10 label', () => {
    expect(found('ICD-10 E119, E785')).toEqual(['ICD-10 E119 high', 'ICD-10 E785 high']);
    expect(found('Code E119 on the form.')).toEqual([]);
  });

  it('lets a look-alike category through when labelled ICD-10', () => {
    expect(found('ICD-10 N95 menopausal disorder')).toEqual(['ICD-10 N95 high']);
    expect(found('Menopause N95.1')).toEqual(['ICD-10 N95.1 high']);
  });

  it('accepts an unlabelled LOINC code only with a right check digit and 3+ digits', () => {
    expect(found('HbA1c 8.1 % [4548-4]')).toEqual(['LOINC 4548-4 low']);
    expect(found('Ref [4548-5]')).toEqual([]);
    expect(found('Take 1-2 tabs')).toEqual([]);
  });
});

describe('failed checks are lowered or dropped, and said so', () => {
  it('lowers an ICD-10 code outside every chapter to low', () => {
    expect(only('ICD-10 K99.8 on the form.')).toMatchObject({
      code: 'K99.8',
      confidence: 'low',
      check: 'failed: chapter range (K99 is outside every chapter)',
    });
  });

  it('lowers an NDC of the wrong shape when labelled, ignores it otherwise', () => {
    expect(only('NDC 1234-567-89 on the label.')).toMatchObject({
      type: 'NDC',
      confidence: 'low',
      check: 'failed: shape (4-3-2 is not 4-4-2, 5-3-2, 5-4-1 (or 11-digit 5-4-2))',
    });
    expect(extractCodes('Serial 1234-567-89 on the label.')).toEqual([]);
  });

  it('lowers a malformed assessment code', () => {
    expect(only('See ASS-LTSGK4W0-3M8 please.')).toMatchObject({
      type: 'Assessment Code',
      confidence: 'low',
      check: 'failed: structure (ASS-LTSGK4W0-3M8 is not ASS-{time}-{4 characters})',
    });
  });

  it('lowers an assessment code with a random part that is too long', () => {
    expect(only('See ASS-LTSGK4W0-3M8PX please.')).toMatchObject({
      type: 'Assessment Code',
      confidence: 'low',
    });
  });

  it('drops a labelled LOINC or SNOMED CT code whose check digit fails', () => {
    const scan = scanText('LOINC 4548-5 and SNOMED CT 44054007 typed.');
    expect(scan.matches).toEqual([]);
    expect(scan.checkFailures).toEqual([
      { type: 'LOINC', code: '4548-5', rule: 'check digit', action: 'dropped' },
      { type: 'SNOMED CT', code: '44054007', rule: 'check digit', action: 'dropped' },
    ]);
  });

  it('records lowered matches as check failures too', () => {
    expect(scanText('ICD-9 000.9').checkFailures).toEqual([
      { type: 'ICD-9', code: '000.9', rule: 'category range', action: 'lowered' },
    ]);
  });

  it('marks checks that passed and codes that have none', () => {
    expect(only('Dx E11.9').check).toBe('passed');
    expect(only('RX-12345').check).toBe('none');
  });
});

describe('context', () => {
  it('keeps about 50 characters either side, whitespace collapsed', () => {
    const before = 'a'.repeat(80);
    const after = 'b'.repeat(80);
    const text = `${before}\n\n  E11.9\t${after}`;
    const match = only(text);
    expect(match.context).toBe(`…${'a'.repeat(46)} E11.9 ${'b'.repeat(49)}…`);
  });

  it('has no ellipsis where the text ends', () => {
    expect(only('Dx E11.9').context).toBe('Dx E11.9');
  });

  it('does not split a surrogate pair at either edge', () => {
    const text = `${'😀'.repeat(30)}E11.9${'😀'.repeat(30)}`;
    const context = contextAround(text, 60, 65);
    expect(context).not.toMatch(
      /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/,
    );
    expect(context).toContain('E11.9');
  });
});
