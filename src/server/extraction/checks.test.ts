import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkAssessmentCode,
  checkIcd10,
  checkIcd9,
  checkLoinc,
  checkNdc,
  checkSnomedCt,
  conditionOfIcd10,
  isVerhoeffValid,
  loincCheckDigit,
  verhoeffCheckDigit,
} from './checks.ts';

const digitString = (minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength, maxLength });

describe('LOINC mod 10 check digit', () => {
  it.each(['4548-4', '2345-7', '718-7', '2160-0', '13457-7', '33914-3', '8480-6', '24467-3'])(
    'accepts the real code %s',
    (code) => {
      expect(checkLoinc(code)).toEqual({ passed: true });
    },
  );

  it('names the right check digit when it is wrong', () => {
    expect(checkLoinc('4548-5')).toEqual({
      passed: false,
      rule: 'check digit',
      detail: '4548-5 should end in -4',
    });
  });

  it('accepts its own check digit and rejects every other one', () => {
    fc.assert(
      fc.property(digitString(1, 5), fc.integer({ min: 1, max: 9 }), (body, shift) => {
        const digit = loincCheckDigit(body);
        expect(checkLoinc(`${body}-${digit}`).passed).toBe(true);
        expect(checkLoinc(`${body}-${(digit + shift) % 10}`).passed).toBe(false);
      }),
    );
  });
});

describe('Verhoeff check digit', () => {
  it('matches the published example 236 -> 3', () => {
    expect(verhoeffCheckDigit('236')).toBe(3);
    expect(isVerhoeffValid('2363')).toBe(true);
    expect(isVerhoeffValid('2364')).toBe(false);
  });

  it('catches every single-digit error and adjacent transposition', () => {
    fc.assert(
      fc.property(
        digitString(5, 17),
        fc.nat(),
        fc.integer({ min: 1, max: 9 }),
        (body, position, shift) => {
          const id = `${body}${verhoeffCheckDigit(body)}`;
          expect(isVerhoeffValid(id)).toBe(true);
          const at = position % id.length;
          const changed = `${id.slice(0, at)}${(Number(id[at]) + shift) % 10}${id.slice(at + 1)}`;
          expect(isVerhoeffValid(changed)).toBe(false);
          const next = at + 1 < id.length ? at : at - 1;
          if (id[next] !== id[next + 1]) {
            const swapped = `${id.slice(0, next)}${id[next + 1]}${id[next]}${id.slice(next + 2)}`;
            expect(isVerhoeffValid(swapped)).toBe(false);
          }
        },
      ),
    );
  });
});

describe('SNOMED CT identifiers', () => {
  it.each(['44054006', '38341003', '195967001', '55822004', '86406008', '56717001', '138875005'])(
    'accepts the real concept id %s',
    (id) => {
      expect(checkSnomedCt(id)).toEqual({ passed: true });
    },
  );

  it('rejects a wrong check digit and says which is right', () => {
    expect(checkSnomedCt('44054007')).toEqual({
      passed: false,
      rule: 'check digit',
      detail: 'Verhoeff check digit of 44054007 should be 6',
    });
  });

  it('rejects an unknown partition identifier even with a valid check digit', () => {
    const body = '1234505';
    const result = checkSnomedCt(`${body}${verhoeffCheckDigit(body)}`);
    expect(result).toMatchObject({ passed: false, rule: 'partition identifier' });
  });

  it('needs room for a 7-digit namespace in an extension id', () => {
    const short = '12310';
    expect(checkSnomedCt(`${short}${verhoeffCheckDigit(short)}`)).toMatchObject({
      passed: false,
      rule: 'partition identifier',
    });
    const long = `1${'1000004'}10`;
    expect(checkSnomedCt(`${long}${verhoeffCheckDigit(long)}`)).toEqual({ passed: true });
  });

  it('rejects lengths outside 6 to 18 digits', () => {
    expect(checkSnomedCt('12345')).toMatchObject({ passed: false, rule: 'length' });
  });
});

describe('ICD-10 structure and chapters', () => {
  it.each(['E11.9', 'I10', 'J45.909', 'B20', 'A15.0', 'E78.5', 'O9A.111', 'Z3A.20', 'U07.1'])(
    'accepts %s',
    (code) => {
      expect(checkIcd10(code)).toEqual({ passed: true });
    },
  );

  it('accepts the dotless billing form', () => {
    expect(checkIcd10('E119')).toEqual({ passed: true });
  });

  it.each(['K99.1', 'E95', 'D95.0', 'H99', 'P98', 'T99', 'U99'])(
    'rejects %s, a category outside every chapter',
    (code) => {
      expect(checkIcd10(code)).toMatchObject({ passed: false, rule: 'chapter range' });
    },
  );

  it('rejects a letter third character outside the known letter categories', () => {
    expect(checkIcd10('E1A.1')).toMatchObject({ passed: false, rule: 'structure' });
  });
});

describe('ICD-9-CM', () => {
  it.each(['250.00', '401.9', '042', '011.90', 'V58.67', 'V12.01', 'E849.0', 'E000'])(
    'accepts %s',
    (code) => {
      expect(checkIcd9(code)).toEqual({ passed: true });
    },
  );

  it.each([
    ['000.1', 'category range'],
    ['V92.1', 'category range'],
    ['E119', 'category range'],
    ['25.00', 'structure'],
  ])('rejects %s (%s)', (code, rule) => {
    expect(checkIcd9(code)).toMatchObject({ passed: false, rule });
  });
});

describe('NDC shapes', () => {
  it.each(['0002-1433-80', '50090-123-01', '00093-7214-1', '00093-1048-01', '00002143380'])(
    'accepts %s',
    (code) => {
      expect(checkNdc(code)).toEqual({ passed: true });
    },
  );

  it.each(['1234-567-89', '1234-5678-9', '12345-678-9'])('rejects %s', (code) => {
    expect(checkNdc(code)).toMatchObject({ passed: false, rule: 'shape' });
  });
});

describe('assessment codes', () => {
  it('accepts a code whose time part is a real creation time', () => {
    const code = `ASS-${Date.UTC(2024, 2, 15).toString(36).toUpperCase()}-7F2A`;
    expect(checkAssessmentCode(code)).toEqual({ passed: true });
  });

  it('rejects the placeholder ASS-XXXX-XXXX: its time is 1970', () => {
    expect(checkAssessmentCode('ASS-XXXX-XXXX')).toMatchObject({
      passed: false,
      rule: 'creation time',
    });
  });

  it('rejects a code with a short random part', () => {
    expect(checkAssessmentCode('ASS-LTSGK4W0-3M8')).toMatchObject({
      passed: false,
      rule: 'structure',
    });
  });
});

describe('condition of an ICD-10 code', () => {
  it.each([
    ['E11.9', 'DM2'],
    ['E11', 'DM2'],
    ['B20', 'HIV'],
    ['B24', 'HIV'],
    ['A15.0', 'TB'],
    ['A19.9', 'TB'],
    ['J45.909', 'Asthma'],
    ['I10', 'Hypertension'],
    ['I15.0', 'Hypertension'],
    ['E78.5', 'Hyperlipidaemia'],
    ['E10.9', null],
    ['B25.0', null],
    ['A20.0', null],
    ['I16.0', null],
    ['J44.9', null],
    ['C4A.0', null],
  ])('%s -> %s', (code, condition) => {
    expect(conditionOfIcd10(code)).toBe(condition);
  });
});
