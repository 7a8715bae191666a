import { describe, expect, it, vi } from 'vitest';
import type { SmartLaunch, SmartWriteBackResult } from '../../shared/api/smart-launch.ts';
import { ApiError } from '../api/client.ts';
import {
  keepWriteBackLink,
  readWriteBackLink,
  sendToRecord,
  writeBackKeyPrefix,
} from './writeBack.ts';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

const result: SmartWriteBackResult = { created: 6, alreadyThere: 0, at: '2026-11-30T10:00:00Z' };

function launchWith(writtenBack: SmartLaunch['writtenBack']): SmartLaunch {
  return {
    id: 'l-1',
    issuer: 'https://ehr.clinic.example/fhir/R4',
    patientRecordId: 'p-1',
    values: [],
    unread: [],
    writeBack: true,
    writtenBack,
  };
}

function setUp(state: 'due' | 'tried' | 'sent' | null) {
  const storage = memoryStorage();
  if (state !== null) keepWriteBackLink('a-1', { launchId: 'l-1', state }, storage);
  const writeBack = vi.fn((_launchId: string, _assessmentId: string) => Promise.resolve(result));
  const getLaunch = vi.fn((_id: string) => Promise.resolve(launchWith(null)));
  return { storage, writeBack, getLaunch, deps: { storage, writeBack, getLaunch } };
}

const failure = new ApiError(
  502,
  'record_write_failed',
  'The record system did not take the assessment.',
);

describe('the write-back link', () => {
  it('is kept by assessment id and read back', () => {
    const storage = memoryStorage();
    keepWriteBackLink('a-1', { launchId: 'l-1', state: 'due' }, storage);
    expect(readWriteBackLink('a-1', storage)).toEqual({ launchId: 'l-1', state: 'due' });
    expect(readWriteBackLink('a-2', storage)).toBeNull();
    expect([...storage.items.keys()]).toEqual([`${writeBackKeyPrefix}a-1`]);
  });

  it('is none when what is stored is not one, or storage is refused', () => {
    const storage = memoryStorage();
    storage.setItem(`${writeBackKeyPrefix}a-1`, '{"launchId":"l-1","state":"maybe"}');
    expect(readWriteBackLink('a-1', storage)).toBeNull();
    storage.setItem(`${writeBackKeyPrefix}a-1`, 'not json');
    expect(readWriteBackLink('a-1', storage)).toBeNull();
    const refusing = {
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('quota');
      },
      removeItem: () => undefined,
    };
    expect(readWriteBackLink('a-1', refusing)).toBeNull();
    expect(() => keepWriteBackLink('a-1', { launchId: 'l', state: 'due' }, refusing)).not.toThrow();
  });
});

describe('sendToRecord', () => {
  it('sends nothing for an assessment not saved from a launch', async () => {
    const { deps, writeBack } = setUp(null);
    await expect(sendToRecord('a-1', deps)).resolves.toBeNull();
    expect(writeBack).not.toHaveBeenCalled();
  });

  it('sends a due assessment once and remembers it is sent', async () => {
    const { deps, writeBack, getLaunch, storage } = setUp('due');
    await expect(sendToRecord('a-1', deps)).resolves.toEqual({ status: 'sent', result });
    expect(writeBack.mock.calls).toEqual([['l-1', 'a-1']]);
    expect(getLaunch).not.toHaveBeenCalled();
    expect(readWriteBackLink('a-1', storage)?.state).toBe('sent');

    // The page shown again (a reload): sent, without a call.
    await expect(sendToRecord('a-1', deps)).resolves.toEqual({ status: 'sent', result: null });
    expect(writeBack).toHaveBeenCalledTimes(1);
  });

  it('sends once when asked twice at the same time (a page mounted twice)', async () => {
    const { deps, writeBack } = setUp('due');
    const [first, second] = await Promise.all([
      sendToRecord('a-1', deps),
      sendToRecord('a-1', deps),
    ]);
    expect(first).toEqual(second);
    expect(writeBack).toHaveBeenCalledTimes(1);
  });

  it("says the server's sentence when the record does not take it, and sends again when asked", async () => {
    const { deps, writeBack, storage } = setUp('due');
    writeBack.mockRejectedValueOnce(failure);
    await expect(sendToRecord('a-1', deps)).resolves.toEqual({
      status: 'failed',
      message: 'The record system did not take the assessment.',
    });
    expect(readWriteBackLink('a-1', storage)?.state).toBe('tried');

    await expect(sendToRecord('a-1', { ...deps, again: true })).resolves.toEqual({
      status: 'sent',
      result,
    });
    expect(writeBack).toHaveBeenCalledTimes(2);
    expect(readWriteBackLink('a-1', storage)?.state).toBe('sent');
  });

  it('after a try whose answer was not seen, asks the launch and does not send what it holds', async () => {
    const { deps, writeBack, getLaunch, storage } = setUp('tried');
    getLaunch.mockResolvedValueOnce(
      launchWith({ assessmentId: 'a-1', at: '2026-11-30T10:00:00Z' }),
    );
    await expect(sendToRecord('a-1', deps)).resolves.toEqual({ status: 'sent', result: null });
    expect(getLaunch.mock.calls).toEqual([['l-1']]);
    expect(writeBack).not.toHaveBeenCalled();
    expect(readWriteBackLink('a-1', storage)?.state).toBe('sent');
  });

  it('after a try whose answer was not seen, sends when the launch holds another assessment or none', async () => {
    const { deps, writeBack, getLaunch } = setUp('tried');
    getLaunch.mockResolvedValueOnce(
      launchWith({ assessmentId: 'a-0', at: '2026-11-30T09:00:00Z' }),
    );
    await expect(sendToRecord('a-1', deps)).resolves.toEqual({ status: 'sent', result });
    expect(writeBack).toHaveBeenCalledTimes(1);
  });

  it('says why when the launch cannot be asked (expired), and Try again sends without asking', async () => {
    const { deps, writeBack, getLaunch } = setUp('tried');
    getLaunch.mockRejectedValueOnce(new ApiError(404, 'not_found', 'This launch has expired.'));
    await expect(sendToRecord('a-1', deps)).resolves.toEqual({
      status: 'failed',
      message: 'This launch has expired.',
    });
    expect(writeBack).not.toHaveBeenCalled();
    await sendToRecord('a-1', { ...deps, again: true });
    expect(getLaunch).toHaveBeenCalledTimes(1);
    expect(writeBack).toHaveBeenCalledTimes(1);
  });
});
