import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  Alert,
  Badge,
  Button,
  Card,
  Container,
  Group,
  Loader,
  NativeSelect,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import type { RuleSet } from '../../../engine/index.ts';
import type { RuleSetSummary } from '../../../shared/api/rule-sets.ts';
import { can } from '../../../shared/permissions.ts';
import { getRuleSet, listRuleSets } from '../../api/rule-sets.ts';
import { errorMessage } from '../../forms.ts';
import { formatLocalDateTime } from '../../format.ts';
import { usePageTitle } from '../../hooks/usePageTitle.ts';
import { useSignedInUser } from '../../hooks/useSession.ts';
import { ActivateRuleSet } from './ActivateRuleSet.tsx';
import { guidelinesTexts } from './guidelinesDisplay.ts';
import { ImpactPanel } from './ImpactPanel.tsx';
import { RuleSetTables } from './RuleSetTables.tsx';

type Load<T> =
  { status: 'loading' } | { status: 'failed'; message: string } | { status: 'loaded'; value: T };

/**
 * What `read` gives, read again whenever `key` changes or `retry` is called; what was loaded
 * stays shown while it is read again.
 */
function useLoad<T>(read: (signal: AbortSignal) => Promise<T>, key: string) {
  const [load, setLoad] = useState<Load<T>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    setLoad((shown) => (shown.status === 'loaded' ? shown : { status: 'loading' }));
    read(controller.signal).then(
      (value) => setLoad({ status: 'loaded', value }),
      (error: unknown) => {
        if (!controller.signal.aborted) setLoad({ status: 'failed', message: errorMessage(error) });
      },
    );
    return () => controller.abort();
    // `key` stands for `read`, a new function on every render.
  }, [key, attempt]);
  return { load, retry: () => setAttempt((n) => n + 1) };
}

function Loading({ text }: { text: string }) {
  return (
    <Group gap="sm" role="status">
      <Loader size="sm" aria-hidden />
      <Text size="sm">{text}</Text>
    </Group>
  );
}

function Failed({ title, message, retry }: { title: string; message: string; retry: () => void }) {
  return (
    <Alert color="red" title={title}>
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{message}</Text>
        <Button size="xs" variant="default" onClick={retry}>
          Try Again
        </Button>
      </Stack>
    </Alert>
  );
}

function versionLabel(summary: RuleSetSummary): string {
  return `${summary.title} – version ${summary.version}${summary.active ? ' (active)' : ''}`;
}

/** Whether the chosen version is active, since when, and for admins 'Make active'. */
function VersionStatus({
  summary,
  onActivated,
}: {
  summary: RuleSetSummary;
  onActivated: () => void;
}) {
  const user = useSignedInUser();
  if (!summary.active) {
    return (
      <Group gap="sm">
        <Badge color="gray" variant="light" size="lg">
          {guidelinesTexts.notActive}
        </Badge>
        {can(user.role, 'ruleSet.activate') && (
          <ActivateRuleSet ruleSet={summary} onActivated={onActivated} />
        )}
      </Group>
    );
  }
  return (
    <Group gap="sm">
      <Badge color="teal.9" variant="filled" size="lg">
        Active
      </Badge>
      <Text size="sm">
        {summary.activeSince === null
          ? guidelinesTexts.noActivation
          : `Active since ${formatLocalDateTime(summary.activeSince)}`}
      </Text>
    </Group>
  );
}

function RuleSetDetails({ version }: { version: string }) {
  const { load, retry } = useLoad<RuleSet>((signal) => getRuleSet(version, signal), version);
  if (load.status === 'loading') return <Loading text="Loading the rules..." />;
  if (load.status === 'failed') {
    return <Failed title="The rules could not be loaded" message={load.message} retry={retry} />;
  }
  return <RuleSetTables ruleSet={load.value} />;
}

/**
 * Clinical Guidelines: every weight, threshold and cap of a rule set version, which version is
 * active, activation for admins and the impact analysis for doctors and admins.
 */
export function GuidelinesPage() {
  usePageTitle('Clinical Guidelines');
  const user = useSignedInUser();
  const [searchParams, setSearchParams] = useSearchParams();
  const { load, retry } = useLoad(listRuleSets, 'list');

  const list = load.status === 'loaded' ? load.value : [];
  const requested = searchParams.get('version');
  const chosen =
    list.find((summary) => summary.version === requested) ??
    list.find((summary) => summary.active) ??
    list[0];

  return (
    <Container size="lg">
      <Stack gap="md">
        <Title order={1} size="h2">
          Clinical Guidelines
        </Title>
        <Text size="sm" c="dimmed">
          The scoring rules of each guidelines version, as the system applies them. Saves are scored
          with the active version; a stored result keeps the version it was scored with.
        </Text>
        {load.status === 'loading' && <Loading text="Loading the guidelines versions..." />}
        {load.status === 'failed' && (
          <Failed
            title="The guidelines versions could not be loaded"
            message={load.message}
            retry={retry}
          />
        )}
        {chosen !== undefined && (
          <>
            <Card
              withBorder
              component="section"
              aria-label="Chosen guidelines version"
              padding="md"
            >
              <Stack gap="sm">
                <NativeSelect
                  label="Guidelines version"
                  value={chosen.version}
                  data={list.map((summary) => ({
                    value: summary.version,
                    label: versionLabel(summary),
                  }))}
                  onChange={(event) =>
                    setSearchParams({ version: event.currentTarget.value }, { replace: true })
                  }
                  maw={640}
                />
                <VersionStatus summary={chosen} onActivated={retry} />
              </Stack>
            </Card>
            {can(user.role, 'ruleSet.impact') && (
              <ImpactPanel version={chosen.version} title={chosen.title} />
            )}
            {/* Keyed: another version's rules are never shown while this one loads. */}
            <RuleSetDetails key={chosen.version} version={chosen.version} />
          </>
        )}
      </Stack>
    </Container>
  );
}
