import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Code,
  Container,
  Group,
  Image,
  List,
  Loader,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type {
  SecondFactorEnrolment,
  SecondFactorStatus,
} from '../../../shared/api/second-factor.ts';
import {
  confirmSecondFactor,
  getSecondFactorStatus,
  startSecondFactorEnrolment,
} from '../../api/second-factor.ts';
import { errorMessage } from '../../forms.ts';
import { usePageTitle } from '../../hooks/usePageTitle.ts';

type View =
  | { step: 'loading' }
  | { step: 'failed'; message: string }
  | { step: 'status'; status: SecondFactorStatus }
  | { step: 'scan'; enrolment: SecondFactorEnrolment }
  | { step: 'recovery codes'; recoveryCodes: string[] };

/** The secret in groups of four, easier to type into an app by hand. */
function grouped(secret: string): string {
  return secret.replaceAll(/(.{4})(?=.)/g, '$1 ');
}

function ScanStep({
  enrolment,
  onConfirmed,
}: {
  enrolment: SecondFactorEnrolment;
  onConfirmed: (recoveryCodes: string[]) => void;
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
      onConfirmed((await confirmSecondFactor(code.trim())).recoveryCodes);
    } catch (error) {
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

/**
 * Two-step sign-in for the signed-in user: set up a TOTP authenticator app (QR code or the secret
 * typed by hand), confirm it with a code, then see the ten recovery codes, this once.
 */
export function SecondFactorPage() {
  usePageTitle('Two-step sign-in');
  const [view, setView] = useState<View>({ step: 'loading' });
  const [starting, setStarting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const load = useCallback((signal?: AbortSignal) => {
    getSecondFactorStatus(signal).then(
      (status) => setView({ step: 'status', status }),
      (error: unknown) => {
        if (signal?.aborted !== true) setView({ step: 'failed', message: errorMessage(error) });
      },
    );
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal);
    return () => controller.abort();
  }, [load]);

  async function start() {
    setStarting(true);
    setFailure(null);
    try {
      setView({ step: 'scan', enrolment: await startSecondFactorEnrolment() });
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setStarting(false);
    }
  }

  function showRecoveryCodes(recoveryCodes: string[]) {
    setView({ step: 'recovery codes', recoveryCodes });
    heading.current?.focus();
  }

  return (
    <Container size="sm">
      <Stack gap="md">
        <Title order={1} ref={heading} tabIndex={-1}>
          Two-step sign-in
        </Title>
        <Text>
          With two-step sign-in on, signing in asks for a code from an app on your phone after your
          password, so that a password alone cannot open your account.
        </Text>
        {view.step === 'loading' && <Loader aria-label="Loading" />}
        {view.step === 'failed' && <Alert color="red">{view.message}</Alert>}
        {view.step === 'status' && view.status.enrolled && (
          <Alert color="green">
            <Text fw={700}>Two-step sign-in is on</Text>
            {view.status.recoveryCodesLeft} of 10 recovery codes are left. If you lose your phone
            and your codes, an administrator can turn two-step sign-in off for you.
          </Alert>
        )}
        {view.step === 'status' && !view.status.enrolled && (
          <Stack gap="sm" align="flex-start">
            <Text>Two-step sign-in is off.</Text>
            {failure !== null && <Alert color="red">{failure}</Alert>}
            <Button onClick={() => void start()} loading={starting}>
              Set up two-step sign-in
            </Button>
          </Stack>
        )}
        {view.step === 'scan' && (
          <ScanStep enrolment={view.enrolment} onConfirmed={showRecoveryCodes} />
        )}
        {view.step === 'recovery codes' && (
          <Stack gap="sm">
            <Alert color="green">
              <Text fw={700}>Two-step sign-in is on</Text>
              Save these recovery codes now, somewhere other than your phone: they are shown only
              this once. Each works once in place of a code from the app.
            </Alert>
            <List aria-label="Recovery codes" listStyleType="none" ff="monospace" fz="lg">
              {view.recoveryCodes.map((code) => (
                <List.Item key={code}>{code}</List.Item>
              ))}
            </List>
            <Group>
              <Button onClick={() => load()}>I have saved my recovery codes</Button>
            </Group>
          </Stack>
        )}
      </Stack>
    </Container>
  );
}
