import { Link } from 'react-router';
import { Badge } from '@mantine/core';
import { useOutbox } from './OutboxContext.ts';
import { offlineTexts } from './texts.ts';
import { useOnline } from './useOnline.ts';

/** The header's word on the connection and on the saves waiting to upload. */
export function OfflineStatus() {
  const online = useOnline();
  const { entries, lockedCount } = useOutbox();
  // Locked, only how many wait is known: the badge counts them all the same.
  const waiting = entries.length + lockedCount;
  return (
    <>
      {!online && (
        <Badge color="gray.8" variant="filled" role="status">
          {offlineTexts.offlineTitle}
        </Badge>
      )}
      {waiting > 0 && (
        <Badge
          component={Link}
          to="/#waiting-uploads"
          // Mantine's orange.8 with white text is 3.6:1; this orange is 5.4:1.
          color={entries.some((entry) => entry.refusal !== null) ? 'red.8' : '#b54708'}
          variant="filled"
          style={{ cursor: 'pointer' }}
          aria-label={offlineTexts.badge(waiting)}
          data-testid="outbox-badge"
        >
          {waiting} to upload
        </Badge>
      )}
    </>
  );
}
