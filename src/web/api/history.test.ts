import { afterEach, describe, expect, it, vi } from 'vitest';
import { staleVersionMessage } from '../../shared/api/assessments.ts';
import { deleteAssessment } from './history.ts';
import { answer, failureOf, planFetch } from './planned-fetch.ts';

const id = 'a6f1c2de-0000-4000-8000-000000000001';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('deleteAssessment', () => {
  it('names the version the user saw in If-Match', async () => {
    const fetchMock = planFetch(new Response(null, { status: 204 }));

    await expect(deleteAssessment(id, 2)).resolves.toBeUndefined();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe(`/api/assessments/${id}`);
    expect(init?.method).toBe('DELETE');
    expect(init?.headers).toMatchObject({ 'if-match': '"2"' });
  });

  it('fails with the stale-version message when someone else changed it since (412)', async () => {
    planFetch(answer(412, { error: { code: 'stale_version', message: staleVersionMessage } }));

    const error = await failureOf(deleteAssessment(id, 2));
    expect(error).toMatchObject({
      status: 412,
      code: 'stale_version',
      message: staleVersionMessage,
    });
  });
});
