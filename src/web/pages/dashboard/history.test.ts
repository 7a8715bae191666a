import { describe, expect, it } from 'vitest';
import type { AssessmentList, AssessmentSummary } from '../../../shared/api/assessments.ts';
import { noDates } from '../../components/dateRange.ts';
import { historyFilter } from './historyFilters.ts';
import {
  bmiText,
  byteCountText,
  foundText,
  genderAndAge,
  totalScoreText,
} from './historyFormat.ts';
import {
  historyReducer,
  historyView,
  initialHistoryState,
  listingFailureMessage,
  type HistoryState,
} from './historyState.ts';

function summary(id: string, overrides: Partial<AssessmentSummary> = {}): AssessmentSummary {
  return {
    id,
    code: `ASS-${id.toUpperCase()}-AAAA`,
    version: 1,
    age: 62,
    gender: 'Female',
    bmi: 31.25,
    assessmentComplete: true,
    totalScore: 9.87654,
    signedOff: false,
    signedOffAt: null,
    signedOffBy: null,
    createdAt: '2026-11-22T09:00:00.000Z',
    updatedAt: '2026-11-22T09:00:00.000Z',
    patientId: null,
    patientNumber: null,
    ...overrides,
  };
}

function page(ids: string[], total: number, overallTotal: number, next: string | null = null) {
  return {
    items: ids.map((id) => summary(id)),
    total,
    overallTotal,
    nextCursor: next,
  } satisfies AssessmentList;
}

function run(...events: Parameters<typeof historyReducer>[1][]): HistoryState {
  return events.reduce(historyReducer, initialHistoryState);
}

describe('the history state', () => {
  it('shows loading, then the list with its totals', () => {
    expect(historyView(initialHistoryState)).toBe('loading');
    const state = run({ type: 'loaded', page: page(['a', 'b'], 2, 5) });
    expect(historyView(state)).toBe('list');
    expect(state).toMatchObject({ total: 2, overallTotal: 5, nextCursor: null });
  });

  it('tells an empty database from a search that matches nothing', () => {
    expect(historyView(run({ type: 'loaded', page: page([], 0, 0) }))).toBe('empty');
    expect(historyView(run({ type: 'loaded', page: page([], 0, 3) }))).toBe('filteredEmpty');
  });

  it('keeps the rows on screen while a new search loads, then replaces them', () => {
    const searching = run({ type: 'loaded', page: page(['a', 'b'], 2, 2) }, { type: 'requested' });
    expect(historyView(searching)).toBe('list');
    expect(searching.status).toBe('loading');
    const answered = historyReducer(searching, { type: 'loaded', page: page(['b'], 1, 2) });
    expect(answered.items.map((i) => i.id)).toEqual(['b']);
  });

  it('appends the next page and its cursor', () => {
    const state = run(
      { type: 'loaded', page: page(['a', 'b'], 3, 3, 'c1') },
      { type: 'moreRequested' },
    );
    expect(state.loadingMore).toBe(true);
    const more = historyReducer(state, { type: 'moreLoaded', page: page(['c'], 3, 3) });
    expect(more.items.map((i) => i.id)).toEqual(['a', 'b', 'c']);
    expect(more).toMatchObject({ nextCursor: null, loadingMore: false });
  });

  it('shows a failed listing as the error panel until dismissed', () => {
    const failed = run({ type: 'failed', message: 'Network connection issue.' });
    expect(historyView(failed)).toBe('error');
    expect(failed.failure).toEqual({ message: 'Network connection issue.', during: 'first' });
    expect(historyView(historyReducer(failed, { type: 'dismissed' }))).toBe('nothing');
    expect(historyView(historyReducer(failed, { type: 'requested' }))).toBe('loading');
  });

  it('keeps the loaded rows when loading more fails', () => {
    const state = run(
      { type: 'loaded', page: page(['a'], 2, 2, 'c1') },
      { type: 'moreRequested' },
      { type: 'moreFailed', message: 'offline' },
    );
    expect(historyView(state)).toBe('list');
    expect(state.failure).toEqual({ message: 'offline', during: 'more' });
    expect(state.items).toHaveLength(1);
  });

  it('removes a deleted row and counts it out of both totals', () => {
    const state = run(
      { type: 'loaded', page: page(['a', 'b'], 2, 4) },
      { type: 'removed', id: 'a' },
    );
    expect(state.items.map((i) => i.id)).toEqual(['b']);
    expect(state).toMatchObject({ total: 1, overallTotal: 3 });
    expect(historyReducer(state, { type: 'removed', id: 'zzz' })).toBe(state);
    const emptied = historyReducer(state, { type: 'removed', id: 'b' });
    expect(historyView(emptied)).toBe('filteredEmpty');
  });

  it('words a listing failure as the spec does', () => {
    expect(listingFailureMessage('timeout')).toBe('Database error: timeout');
  });
});

describe('the history filters', () => {
  it('asks the server only for what is set', () => {
    expect(historyFilter('  signed off ', { from: '', to: '2026-11-30' })).toEqual({
      q: 'signed off',
      from: undefined,
      to: '2026-11-30',
    });
    expect(historyFilter('   ', noDates)).toEqual({ q: undefined, from: undefined, to: undefined });
  });
});

describe('the history row texts', () => {
  it('uses the spec precision', () => {
    expect(bmiText(31.25)).toBe('BMI 31.3');
    expect(bmiText(0)).toBe('BMI 0.0');
    expect(totalScoreText(9.87654)).toBe('Total score 9.8765');
    expect(totalScoreText(3)).toBe('Total score 3.0000');
  });

  it('says when gender or age was not recorded', () => {
    expect(genderAndAge({ gender: 'Female', age: 62 })).toBe('Female, 62 years');
    expect(genderAndAge({ gender: null, age: null })).toBe('Gender not recorded, age not recorded');
  });

  it('counts what was found', () => {
    expect(foundText(3, 12)).toBe('Found 3 of 12 assessments');
  });

  it('reads byte counts', () => {
    expect(byteCountText(512)).toBe('512 bytes');
    expect(byteCountText(1536)).toBe('1.5 KB');
    expect(byteCountText(5 * 1024 * 1024)).toBe('5.0 MB');
  });
});
