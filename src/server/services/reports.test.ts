import { describe, expect, it } from 'vitest';
import { score, type PatientData } from '../../engine/index.ts';
import type { Assessment } from '../../shared/api/assessments.ts';
import { assessmentReport, renderReportText, type ReportClock } from './reports.ts';

const clock: ReportClock = {
  generatedAt: new Date('2026-11-22T22:30:00.000Z'),
  timeZone: 'Africa/Johannesburg',
};

function assessmentOf(input: PatientData, fields: Partial<Assessment> = {}): Assessment {
  const results = score(input);
  return {
    id: 'a6f1c2de-0000-4000-8000-000000000001',
    code: null,
    version: 1,
    demographics: { ...input.demographics, bmi: results.patientBMI },
    riskFactors: input.riskFactors ?? {},
    symptoms: input.symptoms ?? {},
    management: input.management ?? {},
    notes: null,
    results,
    assessmentComplete: results.assessmentComplete,
    totalScore: results.totalScore,
    signedOff: false,
    signedOffAt: null,
    signedOffBy: null,
    createdAt: '2026-11-22T09:00:00.000Z',
    updatedAt: '2026-11-22T09:00:00.000Z',
    createdBy: null,
    deletedAt: null,
    patient: null,
    previousAssessment: null,
    ...fields,
  };
}

const linesOf = (assessment: Assessment, heading: string) =>
  assessmentReport(assessment, clock).sections.find((s) => s.heading === heading)?.lines;

describe('the comprehensive report', () => {
  it('is named after the id when there is no code, dated in the clinic time zone', () => {
    // 22:30 UTC is already the next day in Johannesburg.
    expect(assessmentReport(assessmentOf({}), clock).fileName).toBe(
      'comprehensive-assessment-a6f1c2de-0000-4000-8000-000000000001-2026-11-23.txt',
    );
  });

  it('lists each answered symptom with what the scoring makes of its severity', () => {
    const lines = linesOf(
      assessmentOf({
        symptoms: {
          HIV: { weightLoss: { present: true, severity: 'gain' } },
          TB: { weightLoss: { present: true, severity: 'loss' } },
          DM2: { frequentUrination: { present: true, severity: 'severe' } },
        },
      }),
      'Symptoms',
    );
    expect(lines).toEqual([
      'Type 2 Diabetes:',
      '  Frequent Urination: Yes',
      'HIV:',
      '  Weight Loss: Yes, weight gain (not counted)',
      'TB:',
      '  Weight Loss: Yes, weight loss',
      'Asthma: no symptoms recorded',
      'Hypertension: no symptoms recorded',
      'Hyperlipidaemia: asymptomatic condition, no symptoms assessed',
    ]);
  });

  it('tells unanswered questions from answers', () => {
    const assessment = assessmentOf({
      riskFactors: { smoking: false },
      management: { DM2: { diagnosed: false }, TB: { diagnosed: true } },
    });
    expect(linesOf(assessment, 'Risk Factors')).toContain(
      'Smoking (current or within 5 years): No',
    );
    expect(linesOf(assessment, 'Risk Factors')).toContain('Household TB exposure: Not recorded');
    expect(linesOf(assessment, 'Management')).toEqual([
      'Type 2 Diabetes: Not diagnosed',
      'HIV: Not recorded',
      'TB: Diagnosed; last doctor visit: Not recorded; current prescription: Not recorded',
      'Asthma: Not recorded',
      'Hypertension: Not recorded',
      'Hyperlipidaemia: Not recorded',
    ]);
    expect(linesOf(assessment, 'Patient Demographics')).toContain(
      'BMI: Not calculated (height or weight not recorded)',
    );
  });

  it('recommends by urgency, and routine screening when nothing needs attention', () => {
    const healthy = assessmentOf({
      demographics: { age: 60, gender: 'Male', height: 180, weight: 70 },
    });
    expect(linesOf(healthy, 'Recommendations')).toEqual([
      'No condition requires attention: routine screening as usual.',
    ]);
    const incomplete = assessmentOf({ demographics: { gender: 'Female' } });
    expect(linesOf(incomplete, 'Recommendations')?.[0]).toBe(
      'Type 2 Diabetes (Insufficient Data): record the missing demographics to complete the risk assessment.',
    );
  });

  it('keeps the lines of the notes and ends with the disclaimer', () => {
    const report = assessmentReport(
      assessmentOf({}, { notes: 'First line\r\nSecond line\n' }),
      clock,
    );
    expect(report.sections.find((s) => s.heading === 'Clinical Notes')?.lines).toEqual([
      'First line',
      'Second line',
    ]);
    expect(report.sections.at(-1)?.heading).toBe('Disclaimer');
    const text = renderReportText(report);
    expect(
      text.startsWith('Comprehensive Assessment Report\n===============================\n\n'),
    ).toBe(true);
    expect(text).toContain('\nCLINICAL NOTES\n--------------\nFirst line\nSecond line\n\n');
    expect(text.endsWith('confirmatory tests.\n')).toBe(true);
  });
});
