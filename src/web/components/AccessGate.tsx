import { lazy, Suspense, useEffect, useRef, useState, type FormEvent } from 'react';
import {
  Alert,
  Anchor,
  Box,
  Button,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useLocation, useNavigate } from 'react-router';
import { secondFactorTexts } from '../../shared/api/second-factor.ts';
import { oidcSignInErrors, type SignInOptions } from '../../shared/api/session.ts';
import type { Role } from '../../shared/api/users.ts';
import { productTexts } from '../../shared/texts.ts';
import { ApiError } from '../api/client.ts';
import { getSessionStatus, providerSignInPath } from '../api/session.ts';
import { usePageTitle } from '../hooks/usePageTitle.ts';
import { useSession } from '../hooks/useSession.ts';
import { endPendingServerSession } from '../session/pendingSignOut.ts';
import { keepReturnPath } from '../session/returnPath.ts';
import { signInFailure } from '../session/sessionState.ts';
import { AppFooter } from './AppFooter.tsx';
import { secondFactorPagePath, secondFactorRequiredText } from './SecondFactorRequiredNotice.tsx';

// Only users whose role requires a second factor, past the grace, set one up at sign-in.
const SignInEnrolment = lazy(() =>
  import('./SignInEnrolment.tsx').then((module) => ({ default: module.SignInEnrolment })),
);

/**
 * What the server's redirect back from the organisation's provider says: why the sign-in was
 * refused (`signInError`, a key of oidcSignInErrors, never the provider's text), or the second
 * step it awaits (`signInStep`).
 */
function providerReturn(search: string): {
  error: string | null;
  step: 'code' | 'enrolment' | null;
} {
  const params = new URLSearchParams(search);
  const reason = params.get('signInError');
  const error =
    reason !== null && Object.hasOwn(oidcSignInErrors, reason)
      ? oidcSignInErrors[reason as keyof typeof oidcSignInErrors]
      : null;
  const stepParam = params.get('signInStep');
  const step =
    stepParam === 'second-factor'
      ? 'code'
      : stepParam === 'second-factor-enrolment'
        ? 'enrolment'
        : null;
  return { error, step };
}

/** The access gate (spec 2.1 with decisions.md section 1): shown until the server signs one in. */
export function AccessGate({ notice }: { notice: string | null }) {
  usePageTitle('Secure Access Required');
  const { signIn, answerSecondFactor, signInOptions } = useSession();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const [returned] = useState(() => providerReturn(search));
  const [options, setOptions] = useState<SignInOptions | null>(signInOptions);
  const [leaving, setLeaving] = useState(false);
  const localSignIn = options?.localSignIn ?? true;
  const providerName = options?.oidc?.displayName ?? null;
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [passwordVisible, setPasswordVisible] = useState(false);
  const [checking, setChecking] = useState(false);
  const [failure, setFailure] = useState<string | null>(returned.error);
  /**
   * After a right password (or the provider's sign-in): the code of a user with a second factor,
   * or setting one up for a user whose role requires it, past the grace.
   */
  const [step, setStep] = useState<'password' | 'code' | 'enrolment'>(returned.step ?? 'password');
  const secondStep = step === 'code';
  const [code, setCode] = useState('');
  const passwordInput = useRef<HTMLInputElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);

  const canSubmit = username.trim() !== '' && password !== '' && !checking;

  useEffect(() => {
    if (secondStep) codeInput.current?.focus();
  }, [secondStep]);

  // The provider's answer is read once; a reload does not repeat it.
  useEffect(() => {
    if (returned.error !== null || returned.step !== null)
      void navigate(pathname, { replace: true });
  }, [returned, navigate, pathname]);

  // Signed out in this page (or the check failed): ask the server how sign-in is offered.
  useEffect(() => {
    if (options !== null) return;
    const controller = new AbortController();
    getSessionStatus(controller.signal).then(
      (status) => {
        if (!status.signedIn) setOptions(status.signIn);
      },
      () => undefined, // The password form stays, as before the provider's sign-in existed.
    );
    return () => controller.abort();
  }, [options]);

  function signInWithProvider() {
    setLeaving(true);
    // The provider's sign-in comes back to '/': this page (a launch from the record) opens after.
    keepReturnPath(`${pathname}${search}`);
    // An owed sign-out sent after the provider's sign-in would end the new session instead.
    void endPendingServerSession().finally(() => window.location.assign(providerSignInPath));
  }

  function backToPassword(message: string | null) {
    setStep('password');
    setCode('');
    setPassword('');
    setFailure(message);
  }

  async function submitCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (code.trim() === '' || checking) return;
    setChecking(true);
    setFailure(null);
    try {
      await answerSecondFactor(code.trim());
    } catch (error) {
      setChecking(false);
      setCode('');
      if (error instanceof ApiError && error.message === secondFactorTexts.expired) {
        backToPassword(error.message);
        return;
      }
      setFailure(error instanceof ApiError ? error.message : signInFailure(error).message);
      codeInput.current?.focus();
    }
  }

  /**
   * Signed in within the grace of a second factor the role requires: a notice that stays until
   * closed (the dashboard shows it too, so it is not repeated there).
   */
  function remindOfSecondFactor(role: Role, by: string) {
    const id = notifications.show({
      color: 'yellow',
      title: 'Two-step sign-in required',
      autoClose: false,
      message: (
        <>
          {secondFactorRequiredText(role, by)}{' '}
          <Anchor
            href={secondFactorPagePath}
            size="sm"
            fw={600}
            onClick={(event) => {
              event.preventDefault();
              notifications.hide(id);
              void navigate(secondFactorPagePath);
            }}
          >
            Set up two-step sign-in
          </Anchor>
        </>
      ),
    });
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!canSubmit) return;
    setChecking(true);
    setFailure(null);
    try {
      const outcome = await signIn(username.trim(), password);
      if (outcome.next === 'signedIn') {
        if (outcome.secondFactorRequiredBy !== null && pathname !== '/') {
          remindOfSecondFactor(outcome.user.role, outcome.secondFactorRequiredBy);
        }
        return;
      }
      setChecking(false);
      setStep(outcome.next === 'secondFactor' ? 'code' : 'enrolment');
    } catch (error) {
      const { message, refused } = signInFailure(error);
      setChecking(false);
      setFailure(message);
      if (refused) setPassword('');
      passwordInput.current?.focus();
    }
  }

  return (
    <Stack mih="100dvh" p="md" gap="lg" justify="center" align="center">
      <Box component="main" w="100%" maw={440}>
        <Paper withBorder shadow="sm" radius="md" p={{ base: 'lg', sm: 'xl' }}>
          <Stack gap="md">
            <Title order={1} size="h2">
              Secure Access Required
            </Title>
            <Text>
              {localSignIn
                ? 'Please enter your password to access the Chronic Disease Risk Assessment System'
                : 'Please sign in to access the Chronic Disease Risk Assessment System'}
            </Text>
            {notice !== null && failure === null && (
              <Alert color="yellow" role="status">
                {notice}
              </Alert>
            )}
            {step === 'enrolment' ? (
              <Suspense fallback={null}>
                <SignInEnrolment onBack={backToPassword} />
              </Suspense>
            ) : secondStep ? (
              <form onSubmit={(event) => void submitCode(event)} aria-label="Second step">
                <Stack gap="md">
                  <Text>{secondFactorTexts.codePrompt}</Text>
                  <TextInput
                    ref={codeInput}
                    label="Verification code"
                    name="code"
                    autoComplete="one-time-code"
                    autoCapitalize="none"
                    spellCheck={false}
                    required
                    value={code}
                    onChange={(event) => setCode(event.currentTarget.value)}
                  />
                  {failure !== null && <Alert color="red">{failure}</Alert>}
                  <Button type="submit" fullWidth disabled={code.trim() === '' || checking}>
                    {checking ? 'Verifying...' : 'Verify'}
                  </Button>
                  <Button variant="subtle" fullWidth onClick={() => backToPassword(null)}>
                    Back to password
                  </Button>
                </Stack>
              </form>
            ) : (
              <>
                {providerName !== null && (
                  <Button
                    fullWidth
                    variant={localSignIn ? 'default' : 'filled'}
                    disabled={leaving}
                    onClick={signInWithProvider}
                  >
                    {`Sign in with ${providerName}`}
                  </Button>
                )}
                {!localSignIn && failure !== null && <Alert color="red">{failure}</Alert>}
                {localSignIn && (
                  <form onSubmit={(event) => void submit(event)}>
                    <Stack gap="md">
                      <TextInput
                        label="User name"
                        name="username"
                        autoComplete="username"
                        autoCapitalize="none"
                        spellCheck={false}
                        required
                        value={username}
                        onChange={(event) => setUsername(event.currentTarget.value)}
                      />
                      <PasswordInput
                        ref={passwordInput}
                        label="Password"
                        name="password"
                        autoComplete="current-password"
                        required
                        value={password}
                        onChange={(event) => setPassword(event.currentTarget.value)}
                        visible={passwordVisible}
                        onVisibilityChange={setPasswordVisible}
                        visibilityToggleFocusable
                        visibilityToggleButtonProps={{ 'aria-label': 'Show password' }}
                      />
                      {failure !== null && <Alert color="red">{failure}</Alert>}
                      <Button type="submit" fullWidth disabled={!canSubmit}>
                        {checking ? 'Authenticating...' : 'Access System'}
                      </Button>
                    </Stack>
                  </form>
                )}
              </>
            )}
          </Stack>
        </Paper>
      </Box>
      <Box component="footer">
        <AppFooter guidelinesVersion={productTexts.gateGuidelinesVersion} />
      </Box>
    </Stack>
  );
}
