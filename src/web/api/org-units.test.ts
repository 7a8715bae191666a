import { afterEach, describe, expect, it, vi } from 'vitest';
import { listOrgUnits } from './org-units.ts';
import { answer, failureOf, planFetch } from './planned-fetch.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

const main = {
  id: 'u-main',
  code: 'MAIN',
  name: 'Main clinic',
  parentId: null,
  version: 1,
  closedAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  depth: 0,
};

describe('listOrgUnits', () => {
  it('reads the tree and answers its units in the order given', async () => {
    const north = {
      ...main,
      id: 'u-north',
      code: 'NORTH',
      name: 'North',
      parentId: 'u-main',
      depth: 1,
    };
    const fetchMock = planFetch(answer(200, { items: [main, north] }));

    await expect(listOrgUnits()).resolves.toEqual([main, north]);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/org-units');
  });

  it('refuses an answer that does not match the schema', async () => {
    planFetch(answer(200, { items: [{ ...main, depth: 'top' }] }));

    const error = await failureOf(listOrgUnits());
    expect(error.code).toBe('internal');
  });

  it('passes on the server’s refusal', async () => {
    planFetch(answer(403, { error: { code: 'forbidden', message: 'Not allowed.' } }));

    const error = await failureOf(listOrgUnits());
    expect(error).toMatchObject({ status: 403, code: 'forbidden', message: 'Not allowed.' });
  });
});
