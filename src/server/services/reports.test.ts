import { describe, expect, it } from 'vitest';
import { score, type PatientData } from '../../engine/index.ts';
import type { Assessment } from '../../shared/api/assessments.ts';
import {
  assessmentReport,
  renderReportText,
  type ReportClock,
  type ReportReview,
} from './reports.ts';

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

  describe('of an assessment that names a patient record', () => {
    /** DM2 high and Hypertension diagnosed now; BMI 31.2. */
    const now: PatientData = {
      demographics: { age: 62, gender: 'Female', height: 160, weight: 80 },
      riskFactors: { familyHistory: { DM2: true } },
      symptoms: { DM2: { thirst: { present: true, severity: 'moderate' } } },
      management: { Hypertension: { diagnosed: true } },
    };
    const current = score(now);
    const previous: NonNullable<Assessment['previousAssessment']> = {
      id: 'a6f1c2de-0000-4000-8000-000000000000',
      code: 'ASS-1-PREV',
      // 09:15 on 1 October in Johannesburg.
      createdAt: '2026-10-01T07:15:00.000Z',
      totalScore: 3,
      bmi: 29.4,
      signedOff: true,
      reviewLocked: false,
      ruleSetVersion: current.ruleSetVersion,
      results: current.conditions.map(({ condition, riskStatus, totalScore }) =>
        condition === 'DM2'
          ? { condition, riskStatus: 'MAYBE' as const, totalScore: totalScore - 1.5 }
          : condition === 'Hypertension'
            ? { condition, riskStatus: 'FALSE' as const, totalScore: 0.75 }
            : { condition, riskStatus, totalScore },
      ),
    };
    const linked = assessmentOf(now, {
      code: 'ASS-2-NOW',
      patient: { id: 'p-1', number: 'MRN-0001', name: 'Amina Okafor' },
      previousAssessment: previous,
    });

    it('names the patient after the assessment, and compares after the results', () => {
      const report = assessmentReport(linked, clock);
      expect(report.sections.map((section) => section.heading)).toEqual([
        'Report',
        'Assessment',
        'Patient',
        'Patient Demographics',
        'Symptoms',
        'Risk Factors',
        'Management',
        'Results',
        'Since the last assessment',
        'Recommendations',
        'Clinical Notes',
        'Disclaimer',
      ]);
      expect(linesOf(linked, 'Patient')).toEqual([
        'Patient number: MRN-0001',
        'Name: Amina Okafor',
      ]);
      expect(linesOf(linked, 'Since the last assessment')).toEqual([
        'Previous assessment: 2026-10-01 09:15 (ASS-1-PREV)',
        'BMI: 29.4 then, 31.2 now (+1.8)',
        'Type 2 Diabetes: Moderate Risk then, High Risk now; total score +1.5000',
        'HIV: Low Risk then and now; total score no change',
        'TB: Low Risk then and now; total score no change',
        'Asthma: Low Risk then and now; total score no change',
        'Hypertension: Low Risk then, Diagnosed now; total score \u22120.7500',
        'Hyperlipidaemia: Moderate Risk then and now; total score no change',
      ]);
      expect(renderReportText(report)).toContain(
        '\nPATIENT\n-------\nPatient number: MRN-0001\nName: Amina Okafor\n\nPATIENT DEMOGRAPHICS\n',
      );
      expect(renderReportText(report)).toContain(
        '\nSINCE THE LAST ASSESSMENT\n-------------------------\nPrevious assessment: ',
      );
    });

    it('keeps every line of the spec report, in its place', () => {
      const unlinked = assessmentReport(
        { ...linked, patient: null, previousAssessment: null },
        clock,
      );
      const report = assessmentReport(linked, clock);
      const added = new Set(['Patient', 'Since the last assessment']);
      expect(report.sections.filter((section) => !added.has(section.heading))).toEqual(
        unlinked.sections,
      );
      expect(report.fileName).toBe(unlinked.fileName);
    });

    it('says what it does not know: a name, a BMI, a score of a condition', () => {
      const report = assessmentReport(
        assessmentOf(
          { demographics: { age: 40, gender: 'Male' } },
          {
            patient: { id: 'p-2', number: 'P/77-B', name: null },
            previousAssessment: {
              ...previous,
              code: null,
              bmi: 24.2,
              results: previous.results.filter((result) => result.condition !== 'TB'),
            },
          },
        ),
        clock,
      );
      const lines = (heading: string) =>
        report.sections.find((section) => section.heading === heading)?.lines;
      expect(lines('Patient')).toEqual(['Patient number: P/77-B', 'Name: Not recorded']);
      expect(lines('Since the last assessment')).toEqual(
        expect.arrayContaining([
          `Previous assessment: 2026-10-01 09:15 (${previous.id})`,
          'BMI: 24.2 then, not calculated now',
          'TB: Not assessed then, Low Risk now',
        ]),
      );
    });

    it('says when the two assessments were scored by different rule sets', () => {
      const lines = linesOf(
        assessmentOf(now, {
          patient: linked.patient,
          previousAssessment: { ...previous, ruleSetVersion: '1.9' },
        }),
        'Since the last assessment',
      );
      expect(lines?.[1]).toBe(
        'Rule set then: version 1.9; now: Clinical Guidelines Version 2.0 (scores of different rule sets do not compare)',
      );
    });

    it('names the patient even before there is anything to compare with', () => {
      const first = assessmentReport({ ...linked, previousAssessment: null }, clock);
      expect(first.sections.map((section) => section.heading)).toContain('Patient');
      expect(first.sections.map((section) => section.heading)).not.toContain(
        'Since the last assessment',
      );
    });
  });
});

describe("the report's doctor review", () => {
  const assessment = assessmentOf({
    demographics: { age: 56, gender: 'Female', height: 165, weight: 82 },
    riskFactors: { familyHistory: { DM2: true } },
  });
  const headings = (review?: ReportReview) =>
    assessmentReport(assessment, clock, review).sections.map((s) => s.heading);

  it('is left out for a reader who may not see reviews, and follows the results otherwise', () => {
    expect(headings()).not.toContain('Doctor Review');
    const withReview = headings({ locked: false, reviewedBy: null, reviewedAt: null, reviews: [] });
    expect(withReview.slice(withReview.indexOf('Results'))).toEqual([
      'Results',
      'Doctor Review',
      'Recommendations',
      'Clinical Notes',
      'Disclaimer',
    ]);
  });

  it('says Not reviewed for every condition of a review nobody saved', () => {
    expect(
      assessmentReport(assessment, clock, {
        locked: false,
        reviewedBy: null,
        reviewedAt: null,
        reviews: [],
      }).sections.find((s) => s.heading === 'Doctor Review')?.lines,
    ).toEqual([
      'Doctor review: Not reviewed',
      'Type 2 Diabetes: Not reviewed',
      'HIV: Not reviewed',
      'TB: Not reviewed',
      'Asthma: Not reviewed',
      'Hypertension: Not reviewed',
      'Hyperlipidaemia: Not reviewed',
    ]);
  });

  it("gives each chosen condition the doctor's choice, status and comments, the others Not reviewed", () => {
    const untouched = { decided: false, agreed: false, comments: '', doctorStatus: null };
    const report = assessmentReport(assessment, clock, {
      locked: true,
      reviewedBy: 'Dee Doctor',
      reviewedAt: '2026-11-22T10:15:00.000Z',
      reviews: [
        {
          condition: 'DM2',
          decided: true,
          agreed: true,
          comments: 'Request HbA1c.',
          doctorStatus: null,
        },
        {
          condition: 'HIV',
          decided: true,
          agreed: false,
          comments: 'No exposure.\nRetest in a year.',
          doctorStatus: 'FALSE',
        },
        { condition: 'TB', decided: true, agreed: false, comments: '', doctorStatus: null },
        { condition: 'Asthma', ...untouched },
        { condition: 'Hypertension', ...untouched },
      ],
    });
    expect(report.sections.find((s) => s.heading === 'Doctor Review')?.lines).toEqual([
      'Doctor review: Finalized by Dee Doctor on 2026-11-22 12:15',
      'Type 2 Diabetes: Agree',
      '  Comments: Request HbA1c.',
      'HIV: Disagree; the doctor would give Low Risk',
      '  Comments: No exposure. Retest in a year.',
      'TB: Disagree',
      'Asthma: Not reviewed',
      'Hypertension: Not reviewed',
      'Hyperlipidaemia: Not reviewed',
    ]);
    expect(renderReportText(report)).toContain(
      'DOCTOR REVIEW\n-------------\nDoctor review: Finalized by Dee Doctor on 2026-11-22 12:15\n',
    );
  });
});
