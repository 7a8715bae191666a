import { describe, expect, it } from 'vitest';
import { DEFAULT_RULE_SET, ruleSetByVersion } from '../../engine/index.ts';
import { activeRuleSetOf, ruleSetLabel } from './activeRuleSet.ts';

const trial = '2.0-dm2-bmi-0.25';
const summary = (version: string, active: boolean) => ({
  version,
  title: version,
  active,
  activeSince: null,
});

describe('activeRuleSetOf', () => {
  it('gives the rule set the server marks active', () => {
    expect(activeRuleSetOf([summary('2.0', true), summary(trial, false)])).toEqual({
      status: 'ok',
      ruleSet: DEFAULT_RULE_SET,
    });
    const active = activeRuleSetOf([summary('2.0', false), summary(trial, true)]);
    expect(active).toEqual({ status: 'ok', ruleSet: ruleSetByVersion(trial) });
  });

  it('fails when none is active or the active one is unknown to this page', () => {
    expect(activeRuleSetOf([summary('2.0', false)])).toMatchObject({
      status: 'failed',
      message: expect.stringContaining('No guidelines version') as string,
    });
    expect(activeRuleSetOf([summary('2.0', false), summary('3.0', true)])).toMatchObject({
      status: 'failed',
      message: expect.stringContaining('(version 3.0) are newer than this page') as string,
    });
  });
});

describe('ruleSetLabel', () => {
  it('names the rule set and its version, or the version alone when unknown', () => {
    expect(ruleSetLabel('2.0')).toBe('Clinical Guidelines Version 2.0 (version 2.0)');
    expect(ruleSetLabel(trial)).toBe(
      'Trial: DM2 BMI weight 0.25 (not the default guidelines) (version 2.0-dm2-bmi-0.25)',
    );
    expect(ruleSetLabel('3.0')).toBe('version 3.0');
  });
});
