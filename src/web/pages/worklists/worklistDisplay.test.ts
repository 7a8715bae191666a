import { describe, expect, it } from 'vitest';
import { dueText, timeAgo } from './worklistDisplay.ts';

describe('worklist texts', () => {
  const now = new Date('2026-11-25T12:00:00.000Z');
  it.each([
    ['2026-11-25T11:59:30.000Z', 'just now'],
    ['2026-11-25T11:59:00.000Z', '1 minute ago'],
    ['2026-11-25T10:00:00.000Z', '2 hours ago'],
    ['2026-11-24T12:00:00.000Z', '1 day ago'],
    ['2026-11-01T12:00:00.000Z', '24 days ago'],
  ])('%s was %s', (iso, text) => {
    expect(timeAgo(iso, now)).toBe(text);
  });

  it.each([
    [12, '12 days overdue'],
    [1, '1 day overdue'],
    [0, 'due today'],
    [-5, 'due in 5 days'],
  ])('%i days past the due date reads %s', (days, text) => {
    expect(dueText(days)).toBe(text);
  });
});
