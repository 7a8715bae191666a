import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Loader, Stack, Text, Title } from '@mantine/core';
import { secondFactorTexts, type SecondFactorEnrolment } from '../../shared/api/second-factor.ts';
import { ApiError } from '../api/client.ts';
import { startSignInEnrolment } from '../api/second-factor.ts';
import { errorMessage } from '../forms.ts';
import { useSession } from '../hooks/useSession.ts';
import { RecoveryCodeList, SecondFactorScan } from './SecondFactorSetup.tsx';

type View =
  | { step: 'loading' }
  | { step: 'failed'; message: string }
  | { step: 'scan'; enrolment: SecondFactorEnrolment }
  | { step: 'recovery codes'; recoveryCodes: string[] };

/**
 * The gate's step after the password for a user whose role requires a second factor, past the
 * grace: set up the authenticator app, confirm a code (the session begins), see the recovery
 * codes once, then enter. `onBack` takes the user back to the password (with why, when the
 * sign-in expired); once the session has begun, the only way on is into the app.
 */
export function SignInEnrolment({ onBack }: { onBack: (message: string | null) => void }) {
  const { confirmEnrolment } = useSession();
  const [view, setView] = useState<View>({ step: 'loading' });
  const enter = useRef<() => void>(() => undefined);
  const heading = useRef<HTMLHeadingElement>(null);

  const expired = (error: unknown): boolean => {
    if (!(error instanceof ApiError && error.status === 401)) return false;
    onBack(secondFactorTexts.expired);
    return true;
  };

  useEffect(() => {
    const controller = new AbortController();
    startSignInEnrolment(controller.signal).then(
      (enrolment) => setView({ step: 'scan', enrolment }),
      (error: unknown) => {
        if (controller.signal.aborted || expired(error)) return;
        setView({ step: 'failed', message: errorMessage(error) });
      },
    );
    return () => controller.abort();
    // Once per password step: each opening of the step asks for a new secret.
  }, []);

  useEffect(() => {
    if (view.step === 'scan' || view.step === 'recovery codes') heading.current?.focus();
  }, [view.step]);

  async function confirm(code: string): Promise<string[]> {
    const confirmed = await confirmEnrolment(code);
    enter.current = confirmed.enter;
    return confirmed.recoveryCodes;
  }

  return (
    <Stack gap="md">
      <Title order={2} size="h3" ref={heading} tabIndex={-1}>
        {view.step === 'recovery codes' ? 'Your recovery codes' : 'Set up two-step sign-in'}
      </Title>
      {view.step !== 'recovery codes' && <Text>{secondFactorTexts.enrolmentPrompt}</Text>}
      {view.step === 'loading' && <Loader role="img" aria-label="Loading" />}
      {view.step === 'failed' && <Alert color="red">{view.message}</Alert>}
      {view.step === 'scan' && (
        <SecondFactorScan
          enrolment={view.enrolment}
          confirm={confirm}
          onConfirmed={(recoveryCodes) => setView({ step: 'recovery codes', recoveryCodes })}
          onFailure={expired}
        />
      )}
      {view.step === 'recovery codes' ? (
        <RecoveryCodeList recoveryCodes={view.recoveryCodes} onSaved={() => enter.current()} />
      ) : (
        <Button variant="subtle" fullWidth onClick={() => onBack(null)}>
          Back to password
        </Button>
      )}
    </Stack>
  );
}
