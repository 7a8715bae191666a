import { describe, expect, it } from 'vitest';
import { DEFAULT_RULE_SET, ruleSetByVersion } from '../../../engine/index.ts';
import { completeReviews, reviewLockedMessage } from '../../../shared/api/reviews.ts';
import { friendlyMessages } from '../../../shared/texts.ts';
import { ApiError } from '../../api/client.ts';
import {
  agreedWithShare,
  changeReview,
  chosenReviews,
  doctorStatusOptions,
  lockFailure,
  notReviewedConditions,
  notReviewedLine,
  managementAnswerRows,
  riskFactorRows,
  saveFailure,
  symptomAnswerRows,
  weightPercent,
} from './reviewDisplay.ts';

describe('weightPercent', () => {
  it('shows weights as the guidelines do', () => {
    expect(weightPercent(3)).toBe('300%');
    expect(weightPercent(1.2)).toBe('120%');
    expect(weightPercent(2.5)).toBe('250%');
    expect(weightPercent(0.75)).toBe('75%');
  });

  it('hides binary fractions', () => {
    expect(0.29 * 100).not.toBe(29);
    expect(weightPercent(0.29)).toBe('29%');
    expect(weightPercent(1.33)).toBe('133%');
  });
});

describe('agreedWithShare', () => {
  it('gives the share as a whole percentage, and none when nothing was reviewed', () => {
    expect(agreedWithShare(2, 2 / 3)).toBe('2 (67%)');
    expect(agreedWithShare(1, 1)).toBe('1 (100%)');
    expect(agreedWithShare(0, 0)).toBe('0 (0%)');
    expect(agreedWithShare(0, null)).toBe('0');
  });
});

describe('riskFactorRows', () => {
  it('lists every weighed factor of the condition and marks the ones the result applied', () => {
    expect(riskFactorRows(DEFAULT_RULE_SET, 'DM2', [{ name: 'Age 50 or over' }])).toEqual([
      { name: 'Age 50 or over', weight: '300%', applies: true },
      { name: 'BMI > 25', weight: '75%', applies: false },
      { name: 'Family history of Type 2 Diabetes', weight: '250%', applies: false },
    ]);
    expect(riskFactorRows(DEFAULT_RULE_SET, 'Asthma', []).map((row) => row.weight)).toEqual([
      '120%',
      '133%',
      '280%',
    ]);
  });

  it("shows the weights of the result's own rule set", () => {
    const trial = ruleSetByVersion('2.0-dm2-bmi-0.25');
    expect(riskFactorRows(trial, 'DM2', []).map((row) => row.weight)).toEqual([
      '300%',
      '25%',
      '250%',
    ]);
  });
});

describe('symptomAnswerRows', () => {
  it('says what was answered, with the severity or the weight change', () => {
    expect(
      symptomAnswerRows(DEFAULT_RULE_SET, 'TB', {
        coughOver14Days: { present: true },
        weightLoss: { present: true, severity: 'loss' },
        nightSweats: { present: false },
      }),
    ).toEqual([
      { name: 'Cough > 14 days', answer: 'Yes' },
      { name: 'Weight Loss', answer: 'Yes (Weight Loss)' },
      { name: 'Night Sweats', answer: 'No' },
      { name: 'Fever', answer: 'Not recorded' },
    ]);
    expect(
      symptomAnswerRows(DEFAULT_RULE_SET, 'DM2', {
        fatigue: { present: true, severity: 'moderate' },
      })[0],
    ).toEqual({ name: 'Fatigue', answer: 'Yes (moderate)' });
  });

  it('ignores a severity sent for a symptom without a scale, as scoring does', () => {
    expect(
      symptomAnswerRows(DEFAULT_RULE_SET, 'DM2', {
        frequentUrination: { present: true, severity: 'severe' },
      })[2],
    ).toEqual({ name: 'Frequent Urination', answer: 'Yes' });
  });

  it('has no rows for the asymptomatic condition', () => {
    expect(symptomAnswerRows(DEFAULT_RULE_SET, 'Hyperlipidaemia', undefined)).toEqual([]);
  });
});

describe('managementAnswerRows', () => {
  it('asks about visits and prescriptions only when diagnosed', () => {
    expect(managementAnswerRows(undefined)).toEqual([
      { label: 'Diagnosed', value: 'Not recorded' },
    ]);
    expect(managementAnswerRows({ diagnosed: false })).toEqual([
      { label: 'Diagnosed', value: 'No' },
    ]);
    expect(managementAnswerRows({ diagnosed: true, lastDoctorVisit: '>12months' })).toEqual([
      { label: 'Diagnosed', value: 'Yes' },
      { label: 'Last doctor visit', value: 'More than 12 months ago' },
      { label: 'Current prescription', value: 'Not recorded' },
    ]);
  });
});

describe('saveFailure and lockFailure', () => {
  const locked = new ApiError(409, 'review_locked', reviewLockedMessage);
  const refused = new ApiError(404, 'not_found', 'Failed to load assessment');
  const offline = new ApiError(0, 'network', friendlyMessages.network);

  it('say a locked review is locked, and ask for the stored review', () => {
    expect(saveFailure(locked)).toEqual({
      success: false,
      title: 'Review is already locked and cannot be modified',
      reload: true,
    });
    expect(lockFailure(locked).title).toBe('Review is already locked and cannot be modified');
  });

  it("name the refused action and pass on the server's reason", () => {
    expect(saveFailure(refused)).toEqual({
      success: false,
      title: 'Failed to save doctor review',
      detail: 'Failed to load assessment',
    });
    expect(lockFailure(refused).title).toBe('Failed to lock doctor review');
  });

  it('tell a failed call apart from a refusal', () => {
    expect(saveFailure(offline)).toEqual({
      success: false,
      title: 'An unexpected error occurred while saving',
      detail: friendlyMessages.network,
    });
    expect(lockFailure(new TypeError('boom'))).toEqual({
      success: false,
      title: 'An error occurred while locking the review',
      detail: friendlyMessages.unexpected,
    });
  });
});

describe("the doctor's own judgement", () => {
  const untouched = completeReviews([]);

  it('starts every condition not reviewed, with nothing to send', () => {
    expect(untouched.every((row) => !row.decided && !row.agreed)).toBe(true);
    expect(chosenReviews(untouched)).toEqual([]);
    expect(notReviewedLine(notReviewedConditions(['DM2', 'TB', 'Asthma'], untouched))).toBe(
      'Not reviewed: Type 2 Diabetes, TB, Asthma',
    );
  });

  it('decides a condition by Agree or Disagree, not by comments alone', () => {
    const tb = untouched.find((row) => row.condition === 'TB')!;
    expect(changeReview(tb, { comments: 'x' }).decided).toBe(false);
    const disagreed = changeReview(tb, { agreed: false });
    expect(disagreed).toMatchObject({ decided: true, agreed: false, doctorStatus: null });
    const withStatus = changeReview(disagreed, { doctorStatus: 'MAYBE' });
    expect(withStatus.doctorStatus).toBe('MAYBE');
    // Agreeing drops the status given while disagreeing.
    expect(changeReview(withStatus, { agreed: true })).toMatchObject({
      decided: true,
      agreed: true,
      doctorStatus: null,
    });
  });

  it('sends only the chosen conditions, each with its status when disagreeing', () => {
    const rows = untouched.map((row) =>
      row.condition === 'TB'
        ? changeReview(changeReview(row, { agreed: false }), { doctorStatus: 'FALSE' })
        : row.condition === 'DM2'
          ? changeReview(row, { agreed: true, comments: 'Fine.' })
          : row,
    );
    expect(chosenReviews(rows)).toEqual([
      { condition: 'DM2', agreed: true, comments: 'Fine.', doctorStatus: null },
      { condition: 'TB', agreed: false, comments: '', doctorStatus: 'FALSE' },
    ]);
    expect(notReviewedConditions(['DM2', 'TB'], rows)).toEqual([]);
    expect(notReviewedLine([])).toBe('Every condition is reviewed');
  });

  it('offers the four statuses a doctor may give, labelled as the app shows them', () => {
    expect(doctorStatusOptions).toEqual([
      { value: 'FALSE', label: 'Low Risk' },
      { value: 'MAYBE', label: 'Moderate Risk' },
      { value: 'TRUE', label: 'High Risk' },
      { value: 'DIAGNOSED', label: 'Diagnosed' },
    ]);
  });
});
