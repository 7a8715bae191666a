import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { errorMessage } from '../forms.ts';
import { useOutbox } from './OutboxContext.ts';
import { offlineTexts } from './texts.ts';

/**
 * Asks for the password that opens the outbox key after a reload: the key rests on the device
 * only wrapped under it. Nothing is sent to the server; a wrong password opens nothing.
 */
export function OutboxUnlock() {
  const { locked, lockedCount, unlock } = useOutbox();
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [unlocking, setUnlocking] = useState(false);
  if (!locked) return null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setUnlocking(true);
    setProblem(null);
    try {
      const outcome = await unlock(password);
      if (outcome === 'wrongPassword') setProblem(offlineTexts.wrongPassword);
      else setPassword('');
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setUnlocking(false);
    }
  }

  return (
    <Alert
      color="orange"
      // Mantine's orange title on the light orange ground reads at 3.6:1; this one at 6.2:1.
      styles={{ title: { color: '#9a3412' } }}
      title={offlineTexts.unlockTitle}
      role="region"
      aria-label={offlineTexts.unlockTitle}
    >
      <form onSubmit={(event) => void submit(event)}>
        <Stack gap="xs">
          <Text size="sm">{offlineTexts.unlockBody}</Text>
          {lockedCount > 0 && <Text size="sm">{offlineTexts.lockedCount(lockedCount)}</Text>}
          <Group gap="sm" align="flex-end">
            <PasswordInput
              label={offlineTexts.password}
              autoComplete="current-password"
              value={password}
              error={problem}
              onChange={(event) => setPassword(event.currentTarget.value)}
            />
            <Button type="submit" loading={unlocking} disabled={password === ''}>
              {offlineTexts.unlock}
            </Button>
          </Group>
        </Stack>
      </form>
    </Alert>
  );
}
