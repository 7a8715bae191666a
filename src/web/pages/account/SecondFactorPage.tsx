import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Button, Container, Loader, Stack, Text, Title } from '@mantine/core';
import type {
  SecondFactorEnrolment,
  SecondFactorStatus,
} from '../../../shared/api/second-factor.ts';
import {
  confirmSecondFactor,
  getSecondFactorStatus,
  startSecondFactorEnrolment,
} from '../../api/second-factor.ts';
import { RecoveryCodeList, SecondFactorScan } from '../../components/SecondFactorSetup.tsx';
import { errorMessage } from '../../forms.ts';
import { usePageTitle } from '../../hooks/usePageTitle.ts';
import { useSession } from '../../hooks/useSession.ts';

type View =
  | { step: 'loading' }
  | { step: 'failed'; message: string }
  | { step: 'status'; status: SecondFactorStatus }
  | { step: 'scan'; enrolment: SecondFactorEnrolment }
  | { step: 'recovery codes'; recoveryCodes: string[] };

const confirmWithSession = async (code: string) => (await confirmSecondFactor(code)).recoveryCodes;

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
  const { secondFactorEnrolled } = useSession();

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
    secondFactorEnrolled();
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
        {view.step === 'loading' && <Loader role="img" aria-label="Loading" />}
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
          <SecondFactorScan
            enrolment={view.enrolment}
            confirm={confirmWithSession}
            onConfirmed={showRecoveryCodes}
          />
        )}
        {view.step === 'recovery codes' && (
          <RecoveryCodeList recoveryCodes={view.recoveryCodes} onSaved={() => load()} />
        )}
      </Stack>
    </Container>
  );
}
