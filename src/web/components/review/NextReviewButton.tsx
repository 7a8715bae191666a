import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, Group, Text } from '@mantine/core';
import { awaitingReview } from '../../api/worklists.ts';
import { errorMessage } from '../../forms.ts';

/**
 * Offered once a review is finalized: opens the most urgent assessment still awaiting review,
 * or says that none is left.
 */
export function NextReviewButton() {
  const navigate = useNavigate();
  const [state, setState] = useState<'idle' | 'finding' | 'none' | { failed: string }>('idle');

  async function openNext() {
    setState('finding');
    try {
      const { items } = await awaitingReview({ limit: 1 });
      const next = items[0];
      if (next === undefined) {
        setState('none');
        return;
      }
      setState('idle');
      void navigate(`/assessments/${encodeURIComponent(next.assessmentId)}/review`);
    } catch (error) {
      setState({ failed: errorMessage(error) });
    }
  }

  return (
    <Group gap="sm">
      <Button loading={state === 'finding'} onClick={() => void openNext()}>
        Next review
      </Button>
      {state === 'none' && (
        <Text size="sm" role="status">
          No more assessments await review.
        </Text>
      )}
      {typeof state === 'object' && (
        <Text size="sm" c="red" role="alert">
          {state.failed}
        </Text>
      )}
    </Group>
  );
}
