import { useRef, useState, type FormEvent } from 'react';
import { Alert, Button, Code, Group, Image, List, Stack, Text, TextInput } from '@mantine/core';
import type { SecondFactorEnrolment } from '../../shared/api/second-factor.ts';
import { errorMessage } from '../forms.ts';

/** The secret in groups of four, easier to type into an app by hand. */
function grouped(secret: string): string {
  return secret.replaceAll(/(.{4})(?=.)/g, '$1 ');
}

/**
 * Setting up an authenticator app: the QR code, the secret to type by hand, then a code from the
 * app. `confirm` answers the recovery codes, or throws (its message is shown); `onFailure` may
 * take a failure over instead (a sign-in that expired).
 */
export function SecondFactorScan({
  enrolment,
  confirm,
  onConfirmed,
  onFailure,
}: {
  enrolment: SecondFactorEnrolment;
  confirm: (code: string) => Promise<string[]>;
  onConfirmed: (recoveryCodes: string[]) => void;
  onFailure?: (error: unknown) => boolean;
}) {
  const [code, setCode] = useState('');
  const [checking, setChecking] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const codeInput = useRef<HTMLInputElement>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (code.trim() === '' || checking) return;
    setChecking(true);
    setFailure(null);
    try {
      onConfirmed(await confirm(code.trim()));
    } catch (error) {
      if (onFailure?.(error) === true) return;
      setChecking(false);
      setCode('');
      setFailure(errorMessage(error));
      codeInput.current?.focus();
    }
  }

  return (
    <Stack gap="md">
      <Text>
        1. Scan this QR code with an authenticator app (such as FreeOTP, Aegis, Google Authenticator
        or Microsoft Authenticator).
      </Text>
      <Image
        src={enrolment.qrCode}
        alt="QR code of your two-step sign-in secret, for an authenticator app"
        w={220}
        h={220}
        fit="contain"
      />
      <Text>Or type this secret into the app by hand (time-based, 6 digits, 30 seconds):</Text>
      {/* Wrapped between groups: a phone shows the whole secret without scrolling sideways. */}
      <Code
        block
        aria-label="Secret"
        data-testid="second-factor-secret"
        fz="md"
        style={{ whiteSpace: 'normal' }}
      >
        {grouped(enrolment.secret)}
      </Code>
      <form onSubmit={(event) => void submit(event)}>
        <Stack gap="md" maw={360}>
          <TextInput
            ref={codeInput}
            label="2. Enter the 6-digit code the app shows"
            name="code"
            autoComplete="one-time-code"
            inputMode="numeric"
            required
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
          />
          {failure !== null && <Alert color="red">{failure}</Alert>}
          <Group>
            <Button type="submit" disabled={code.trim() === '' || checking}>
              {checking ? 'Checking...' : 'Confirm'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}

/** The ten recovery codes, shown once after a factor is confirmed, and the way on. */
export function RecoveryCodeList({
  recoveryCodes,
  onSaved,
}: {
  recoveryCodes: string[];
  onSaved: () => void;
}) {
  return (
    <Stack gap="sm">
      <Alert color="green">
        <Text fw={700}>Two-step sign-in is on</Text>
        Save these recovery codes now, somewhere other than your phone: they are shown only this
        once. Each works once in place of a code from the app.
      </Alert>
      <List aria-label="Recovery codes" listStyleType="none" ff="monospace" fz="lg">
        {recoveryCodes.map((code) => (
          <List.Item key={code}>{code}</List.Item>
        ))}
      </List>
      <Group>
        <Button onClick={onSaved}>I have saved my recovery codes</Button>
      </Group>
    </Stack>
  );
}
