import { describe, expect, it } from 'vitest';
import { QueryClient, type InfiniteData, type QueryKey } from '@tanstack/react-query';
import type {
  Assessment,
  AssessmentList,
  AssessmentSummary,
} from '../../shared/api/assessments.ts';
import type { Review } from '../../shared/api/reviews.ts';
import {
  assessmentDeleted,
  assessmentListsChanged,
  assessmentStored,
  queryKeys,
  reviewLocked,
  reviewSaved,
  withoutAssessment,
} from './serverState.ts';

type HistoryPages = InfiniteData<AssessmentList, string | undefined>;

function row(id: string): AssessmentSummary {
  return { id, version: 1 } as AssessmentSummary;
}

function pages(...lists: { ids: string[]; total: number; overallTotal: number }[]): HistoryPages {
  return {
    pages: lists.map(({ ids, total, overallTotal }) => ({
      items: ids.map(row),
      total,
      overallTotal,
      nextCursor: null,
    })),
    pageParams: lists.map((_, index) => (index === 0 ? undefined : `cursor-${index}`)),
  };
}

const review = { locked: true } as Review;
const keys = {
  history: queryKeys.history({ q: 'smith' }),
  otherHistory: queryKeys.history({ from: '2026-11-01' }),
  population: queryKeys.population({ q: 'smith' }),
  agreement: queryKeys.agreement({}),
  assessment: queryKeys.assessment('a1'),
  otherAssessment: queryKeys.assessment('a2'),
  review: queryKeys.review('a1'),
  awaitingReview: queryKeys.worklist('awaitingReview'),
  followUp: queryKeys.worklist('followUp'),
  awaitingCount: queryKeys.worklist('awaitingReview', 1),
  patient: queryKeys.patient('p1'),
};

/** A client holding an answer under every key, none of them stale by invalidation yet. */
function seeded(): QueryClient {
  const client = new QueryClient();
  for (const key of Object.values(keys)) client.setQueryData(key, {});
  client.setQueryData(keys.history, pages({ ids: ['a1', 'b'], total: 2, overallTotal: 9 }));
  client.setQueryData(keys.otherHistory, pages({ ids: ['c'], total: 1, overallTotal: 9 }));
  return client;
}

function invalidated(client: QueryClient): string[] {
  return Object.entries(keys)
    .filter(([, key]) => client.getQueryState(key as QueryKey)?.isInvalidated === true)
    .map(([name]) => name);
}

describe('query keys', () => {
  it('hold every parameter, so that different requests never share an answer', () => {
    expect(queryKeys.history({ q: 'a' })).not.toEqual(queryKeys.history({ q: 'b' }));
    expect(queryKeys.history({ q: 'a', from: '2026-11-01' })).not.toEqual(
      queryKeys.history({ q: 'a', from: '2026-11-02' }),
    );
    expect(queryKeys.history({ to: '2026-11-01' })).not.toEqual(queryKeys.history({}));
    expect(queryKeys.agreement({ from: '2026-11-01' })).not.toEqual(
      queryKeys.agreement({ to: '2026-11-01' }),
    );
    expect(queryKeys.assessment('a1')).not.toEqual(queryKeys.assessment('a2'));
    expect(queryKeys.review('a1')).not.toEqual(queryKeys.assessment('a1'));
    expect(queryKeys.worklist('awaitingReview', 1)).not.toEqual(
      queryKeys.worklist('awaitingReview'),
    );
  });

  it('are the same for the same request whatever else the filter object carries', () => {
    const filter = { q: 'a', from: undefined, to: '2026-11-30' };
    expect(queryKeys.history({ ...filter, extra: 1 } as typeof filter)).toEqual(
      queryKeys.history(filter),
    );
  });
});

describe('what a change refreshes', () => {
  it('a stored assessment replaces its cached copy and refreshes the lists, not the reviews', async () => {
    const client = seeded();
    const stored = { id: 'a1', version: 3 } as Assessment;
    await assessmentStored(client, stored);
    expect(client.getQueryData(keys.assessment)).toEqual(stored);
    expect(invalidated(client).sort()).toEqual(
      [
        'awaitingCount',
        'awaitingReview',
        'followUp',
        'history',
        'otherHistory',
        'patient',
        'population',
      ].sort(),
    );
  });

  it('uploads from the outbox refresh every list', async () => {
    const client = seeded();
    await assessmentListsChanged(client);
    expect(invalidated(client).sort()).toEqual(
      [
        'awaitingCount',
        'awaitingReview',
        'followUp',
        'history',
        'otherHistory',
        'patient',
        'population',
      ].sort(),
    );
  });

  it('a saved review changes only the cached review', () => {
    const client = seeded();
    reviewSaved(client, 'a1', review);
    expect(client.getQueryData(keys.review)).toEqual(review);
    expect(invalidated(client)).toEqual([]);
  });

  it('a locked review refreshes the agreement, the assessment, the worklists, the history and patients', async () => {
    const client = seeded();
    await reviewLocked(client, 'a1', review);
    expect(client.getQueryData(keys.review)).toEqual(review);
    expect(invalidated(client).sort()).toEqual(
      [
        'agreement',
        'assessment',
        'awaitingCount',
        'awaitingReview',
        'followUp',
        'history',
        'otherHistory',
        'patient',
      ].sort(),
    );
  });

  it('a delete takes the row out of every cached history and drops its own queries', async () => {
    const client = seeded();
    await assessmentDeleted(client, 'a1');
    const history = client.getQueryData<HistoryPages>(keys.history);
    expect(history?.pages[0]?.items.map((item) => item.id)).toEqual(['b']);
    expect(history?.pages[0]).toMatchObject({ total: 1, overallTotal: 8 });
    // A list without the row is left as it was.
    expect(client.getQueryData<HistoryPages>(keys.otherHistory)?.pages[0]?.total).toBe(1);
    expect(client.getQueryData(keys.assessment)).toBeUndefined();
    expect(client.getQueryData(keys.review)).toBeUndefined();
    expect(client.getQueryData(keys.otherAssessment)).toBeDefined();
    expect(invalidated(client).sort()).toEqual(
      ['agreement', 'awaitingCount', 'awaitingReview', 'followUp', 'patient', 'population'].sort(),
    );
  });
});

describe('withoutAssessment', () => {
  it('counts the row out of the totals of every page, and leaves pages without it alone', () => {
    const data = pages(
      { ids: ['a', 'b'], total: 3, overallTotal: 4 },
      { ids: ['c'], total: 3, overallTotal: 4 },
    );
    const after = withoutAssessment(data, 'c');
    expect(after.pages.flatMap((page) => page.items.map((item) => item.id))).toEqual(['a', 'b']);
    expect(after.pages.map((page) => [page.total, page.overallTotal])).toEqual([
      [2, 3],
      [2, 3],
    ]);
    expect(after.pageParams).toBe(data.pageParams);
    expect(withoutAssessment(data, 'zzz')).toBe(data);
  });
});
