import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { RuleSetSummary } from '../../../shared/api/rule-sets.ts';
import { activateRuleSet } from '../../api/rule-sets.ts';
import { errorMessage } from '../../forms.ts';
import { ruleSetActivated } from '../../hooks/serverState.ts';
import { guidelinesTexts } from './guidelinesDisplay.ts';

/**
 * 'Make active' for a version that is not active, behind a dialog that names the version and
 * says what activation changes; `onActivated` reloads the list.
 */
export function ActivateRuleSet({
  ruleSet,
  onActivated,
}: {
  ruleSet: RuleSetSummary;
  onActivated: () => void;
}) {
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState(false);
  const [activating, setActivating] = useState(false);
  const [error, setError] = useState<string | null>(null);

  function close() {
    if (activating) return;
    setOpened(false);
    setError(null);
  }

  function confirm() {
    setActivating(true);
    setError(null);
    activateRuleSet(ruleSet.version).then(
      (activated) => {
        setActivating(false);
        setOpened(false);
        notifications.show({
          color: 'teal',
          title: guidelinesTexts.activated,
          message: guidelinesTexts.activatedDetail(activated.title, activated.version),
        });
        onActivated();
        // The footer names the active version.
        void ruleSetActivated(queryClient);
      },
      (failure: unknown) => {
        setActivating(false);
        setError(errorMessage(failure));
      },
    );
  }

  return (
    <>
      <Button onClick={() => setOpened(true)}>Make active</Button>
      <Modal
        opened={opened}
        onClose={close}
        title={guidelinesTexts.activateTitle(ruleSet.version)}
        centered
      >
        <Stack gap="md">
          <Text>{guidelinesTexts.activateConfirm(ruleSet.title, ruleSet.version)}</Text>
          {error !== null && (
            <Text c="red.8" size="sm" role="alert">
              {error}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={activating}>
              Cancel
            </Button>
            <Button onClick={confirm} loading={activating}>
              Make active
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
