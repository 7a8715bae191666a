import { describe, expect, it } from 'vitest';
import type { ImpactResult } from '../../../shared/rule-set-impact.ts';
import {
  agreedOfReviews,
  impactProgressText,
  impactRangeText,
  scoreChangeText,
} from './impactDisplay.ts';

type Range = Pick<ImpactResult, 'version' | 'title' | 'from' | 'to' | 'assessments'>;
const result: Range = {
  version: '2.0-dm2-bmi-0.25',
  title: 'Trial',
  from: null,
  to: null,
  assessments: 12,
};

describe('impact texts', () => {
  it('says how far the analysis has come', () => {
    expect(impactProgressText(0, null)).toBe('Starting the impact analysis...');
    expect(impactProgressText(500, 2000)).toBe('Re-scored 500 of 2000 assessments');
  });

  it('names the count, the dates and the version of a result', () => {
    const shown = (part: Partial<Range>) => impactRangeText({ ...result, ...part });
    expect(shown({})).toBe(
      '12 live assessments of every date re-scored with Trial (version 2.0-dm2-bmi-0.25).',
    );
    expect(shown({ assessments: 1, from: '2025-01-01', to: '2025-01-31' })).toBe(
      '1 live assessment created 2025-01-01 to 2025-01-31 re-scored with Trial (version 2.0-dm2-bmi-0.25).',
    );
    expect(shown({ from: '2025-01-01' })).toMatch(/ created on or after 2025-01-01 /);
    expect(shown({ to: '2025-01-31' })).toMatch(/ created on or before 2025-01-31 /);
  });

  it('gives the agreed of the reviews with the share', () => {
    const side = { reviews: 3, agreed: 2, share: 2 / 3, kappa: null, kappaReviews: 3 };
    expect(agreedOfReviews(side)).toBe('2 of 3 (67%)');
    expect(agreedOfReviews({ ...side, reviews: 0, agreed: 0, share: null })).toBe('No reviews');
  });

  it('gives how many total scores move and their mean change, signed', () => {
    expect(scoreChangeText({ scoreChanged: 0, scoreChangeMean: null })).toBe('None');
    expect(scoreChangeText({ scoreChanged: 3, scoreChangeMean: -0.49999999999999994 })).toBe(
      '3 (mean -0.50)',
    );
    expect(scoreChangeText({ scoreChanged: 1, scoreChangeMean: 0.25 })).toBe('1 (mean +0.25)');
  });
});
