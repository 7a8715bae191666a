import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Anchor, Button, Group, Text } from '@mantine/core';
import { awaitingReview } from '../../api/worklists.ts';
import { errorMessage } from '../../forms.ts';

/**
 * Offered once a review is finalized: opens the most urgent assessment still awaiting review,
 * or says that none is left and offers the worklist. `focusOnMount` puts the keyboard on it, as
 * after the doctor's own Finalize.
 */
export function NextReviewButton({ focusOnMount = false }: { focusOnMount?: boolean }) {
  const navigate = useNavigate();
  const [state, setState] = useState<'idle' | 'finding' | 'none' | { failed: string }>('idle');
  const button = useRef<HTMLButtonElement>(null);
  const worklistLink = useRef<HTMLAnchorElement>(null);

  useEffect(() => {
    if (focusOnMount) button.current?.focus();
  }, [focusOnMount]);
  useEffect(() => {
    if (state === 'none') worklistLink.current?.focus();
  }, [state]);

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

  if (state === 'none') {
    return (
      <Group gap="sm">
        <Text size="sm" role="status">
          No more assessments await review.
        </Text>
        <Anchor component={Link} to="/worklists/review" size="sm" ref={worklistLink}>
          Open Awaiting Review
        </Anchor>
      </Group>
    );
  }
  return (
    <Group gap="sm">
      <Button ref={button} loading={state === 'finding'} onClick={() => void openNext()}>
        Next review
      </Button>
      {typeof state === 'object' && (
        <Text size="sm" c="red" role="alert">
          {state.failed}
        </Text>
      )}
    </Group>
  );
}
