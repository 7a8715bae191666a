import { describe, expect, it } from 'vitest';
import { extractionCsv, extractionReportText } from './report.ts';
import { createExtractionRun } from './run.ts';
import type { ExtractionResult } from './types.ts';

function sampleResult(): ExtractionResult {
  const run = createExtractionRun();
  run.add({
    kind: 'assessment_note',
    assessmentId: '42',
    assessmentCode: 'ASS-LTSGK4W0-3M8P',
    text: 'Dx E11.9, "poorly controlled". LOINC 4548-5 typo.',
    diagnosed: { DM2: false },
  });
  run.add({
    kind: 'doctor_comment',
    assessmentId: '43',
    assessmentCode: null,
    reviewId: 'r-9',
    condition: 'Hypertension',
    text: 'I10\n=HYPERLINK("x") ICD-10 K99.8',
    diagnosed: {},
  });
  return run.finish();
}

describe('extractionReportText', () => {
  const report = extractionReportText(sampleResult(), '2025-03-04T09:16:00.000Z');

  it('starts with the title and generation time, then the counts', () => {
    expect(report).toContain(
      'NURSE NOTES CODE EXTRACTION REPORT\nGenerated: 2025-03-04T09:16:00.000Z',
    );
    expect(report).toContain('  Total Notes:      2');
    expect(report).toContain('  Notes with Codes: 2');
    expect(report).toContain('  Unique Codes:     3');
    expect(report).toContain('  Total Matches:    3');
    expect(report).toMatch(/ {2}ICD-10 \(high\) +3\n/);
  });

  it('reports the checks, inconsistencies, matches and kinds searched', () => {
    expect(report).toContain('  - 1 LOINC candidate dropped: check digit failed');
    expect(report).toContain(
      '  - Assessment ASS-LTSGK4W0-3M8P (id 42): a note carries E11.9 (DM2) but the assessment records DM2 as not diagnosed.',
    );
    expect(report).toContain('  1. E11.9 - ICD-10, high confidence, check passed');
    expect(report).toContain(
      '     Source: assessment note of assessment ASS-LTSGK4W0-3M8P (id 42)',
    );
    expect(report).toContain(
      '     Source: doctor comment r-9 on Hypertension for assessment id 43',
    );
    expect(report).toContain('  - SNOMED CT (low): ');
    expect(report).toMatch(/not diagnoses/);
  });

  it('says so when there is nothing to list', () => {
    const empty = extractionReportText(createExtractionRun().finish(), '2025-01-01T00:00:00Z');
    expect(empty).toContain('Every matched code passed its check or has none.');
    expect(empty).toContain('POSSIBLE INCONSISTENCIES (for a clinician to review)\n  None found.');
    expect(empty).toContain('MATCHES\n  No codes found.');
  });
});

describe('extractionCsv', () => {
  const csv = extractionCsv(sampleResult());
  const lines = csv.split('\r\n');

  it('has the agreed header and CRLF line ends', () => {
    expect(lines[0]).toBe(
      'code,type,confidence,check,source,assessment_id,assessment_code,review_id,condition,context',
    );
    expect(csv.endsWith('\r\n')).toBe(true);
    expect(lines).toHaveLength(5);
  });

  it('quotes cells with commas and quotes, doubling the quotes', () => {
    expect(lines[1]).toBe(
      'E11.9,ICD-10,high,passed,assessment_note,42,ASS-LTSGK4W0-3M8P,,,' +
        '"Dx E11.9, ""poorly controlled"". LOINC 4548-5 typo."',
    );
  });

  it('leaves optional cells empty and quotes a check with commas', () => {
    expect(lines[2]).toBe(
      'I10,ICD-10,high,passed,doctor_comment,43,,r-9,Hypertension,' +
        '"I10 =HYPERLINK(""x"") ICD-10 K99.8"',
    );
    expect(lines[3]).toMatch(
      /^K99\.8,ICD-10,low,failed: chapter range \(K99 is outside every chapter\),/,
    );
  });

  it('neutralises cells that a spreadsheet would run as a formula', () => {
    const result = sampleResult();
    const [first] = result.matches;
    result.matches = [{ ...first!, context: '=HYPERLINK("http://x")', code: '+1', check: 'none' }];
    const row = extractionCsv(result).split('\r\n')[1];
    expect(row).toBe(
      `'+1,ICD-10,high,none,assessment_note,42,ASS-LTSGK4W0-3M8P,,,"'=HYPERLINK(""http://x"")"`,
    );
    for (const start of ['-', '@']) {
      result.matches = [{ ...first!, context: `${start}cmd` }];
      expect(extractionCsv(result).split('\r\n')[1]).toMatch(new RegExp(`,'\\${start}cmd$`));
    }
  });

  it('writes a cell with a leading =, a comma, a quote and a newline as one quoted, inert cell', () => {
    const result = sampleResult();
    const [first] = result.matches;
    result.matches = [{ ...first!, context: '=SUM(A1:A9),"total"\nnext line' }];
    expect(extractionCsv(result).split('\r\n')[1]).toBe(
      'E11.9,ICD-10,high,passed,assessment_note,42,ASS-LTSGK4W0-3M8P,,,' +
        `"'=SUM(A1:A9),""total""\nnext line"`,
    );
  });
});
