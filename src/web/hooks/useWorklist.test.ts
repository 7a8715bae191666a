import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client.ts';
import { worklistState } from './useWorklist.ts';

const first = { items: ['a', 'b'], total: 3, nextCursor: 'c1' };
const second = { items: ['c'], total: 3, nextCursor: null };
const idle = { pages: undefined, error: null, fetching: false, fetchingMore: false };

describe('a worklist as the page shows it', () => {
  it('loads, then joins its pages with the total and cursor of the last', () => {
    expect(worklistState({ ...idle, fetching: true })).toEqual({ status: 'loading' });
    expect(worklistState({ ...idle, pages: [first], fetchingMore: true })).toEqual({
      status: 'loaded',
      items: ['a', 'b'],
      total: 3,
      nextCursor: 'c1',
      more: true,
    });
    expect(worklistState({ ...idle, pages: [first, second] })).toMatchObject({
      items: ['a', 'b', 'c'],
      nextCursor: null,
      more: false,
    });
  });

  it("says why it failed, until Try Again's request is under way", () => {
    const error = new ApiError(503, 'database_unavailable', 'The database is not available.');
    expect(worklistState({ ...idle, pages: [first], error })).toEqual({
      status: 'failed',
      message: 'The database is not available.',
    });
    expect(worklistState({ ...idle, error, fetching: true })).toEqual({ status: 'loading' });
  });
});
