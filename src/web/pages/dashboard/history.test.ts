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
  historyState,
  historyView,
  listingFailureMessage,
  type HistoryQuery,
  type HistoryState,
} from '../../hooks/historyState.ts';

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

const settled: HistoryQuery = {
  pages: undefined,
  fetching: false,
  fetchingMore: false,
  paused: null,
  error: null,
  dismissed: false,
};

function state(query: Partial<HistoryQuery>): HistoryState {
  return historyState({ ...settled, ...query });
}

describe('the history state', () => {
  it('shows loading, then the list with the totals of the latest page', () => {
    expect(historyView(state({ fetching: true }))).toBe('loading');
    const loaded = state({ pages: [page(['a', 'b'], 2, 5)] });
    expect(historyView(loaded)).toBe('list');
    expect(loaded).toMatchObject({ status: 'ready', total: 2, overallTotal: 5, nextCursor: null });
  });

  it('tells an empty database from a search that matches nothing', () => {
    expect(historyView(state({ pages: [page([], 0, 0)] }))).toBe('empty');
    expect(historyView(state({ pages: [page([], 0, 3)] }))).toBe('filteredEmpty');
  });

  it("keeps the rows on screen while a new search loads (the query's previous pages)", () => {
    const searching = state({ pages: [page(['a', 'b'], 2, 2)], fetching: true });
    expect(historyView(searching)).toBe('list');
    expect(searching.status).toBe('loading');
  });

  it('joins the pages in order and takes the next cursor from the last', () => {
    const more = state({ pages: [page(['a', 'b'], 3, 3, 'c1')], fetchingMore: true });
    expect(more).toMatchObject({ loadingMore: true, status: 'ready', nextCursor: 'c1' });
    const joined = state({ pages: [page(['a', 'b'], 3, 3, 'c1'), page(['c'], 3, 3)] });
    expect(joined.items.map((i) => i.id)).toEqual(['a', 'b', 'c']);
    expect(joined).toMatchObject({ nextCursor: null, loadingMore: false });
  });

  it('shows a failed listing as the error panel, without stale rows, until dismissed', () => {
    const error = { message: 'Database error: Network connection issue.', more: false };
    const failed = state({ pages: [page(['a'], 1, 1)], error });
    expect(historyView(failed)).toBe('error');
    expect(failed.items).toEqual([]);
    expect(failed.failure).toEqual({ message: error.message, during: 'first' });
    expect(historyView(state({ error, dismissed: true }))).toBe('nothing');
    // Trying again shows the request, not the failure it repeats.
    expect(historyView(state({ error, fetching: true }))).toBe('loading');
  });

  it('keeps the loaded rows when loading more fails', () => {
    const failed = state({ pages: [page(['a'], 2, 2, 'c1')], error: { message: 'x', more: true } });
    expect(historyView(failed)).toBe('list');
    expect(failed.failure).toEqual({ message: 'x', during: 'more' });
    expect(failed.items).toHaveLength(1);
  });

  it('says the list waits for the connection when the query is paused offline', () => {
    const offline = state({ pages: [page(['a'], 2, 2, 'c1')], paused: 'first' });
    expect(historyView(offline)).toBe('error');
    expect(offline.failure?.during).toBe('first');
    const moreOffline = state({ pages: [page(['a'], 2, 2, 'c1')], paused: 'more' });
    expect(historyView(moreOffline)).toBe('list');
    expect(moreOffline.failure?.during).toBe('more');
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
    // The unit the dashboard shows, from its address.
    expect(historyFilter('', noDates, 'unit-1')).toStrictEqual({
      q: undefined,
      from: undefined,
      to: undefined,
      unit: 'unit-1',
    });
  });
});

describe('the history row texts', () => {
  it('uses the spec precision', () => {
    expect(bmiText(31.25)).toBe('BMI 31.3');
    // No height or weight: the rules' 0 is not a measurement.
    expect(bmiText(0)).toBe('BMI —');
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
