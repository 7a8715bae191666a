import { Link } from 'react-router';
import { Badge } from '@mantine/core';
import { useOutbox } from './OutboxContext.ts';
import { offlineTexts } from './texts.ts';
import { useOnline } from './useOnline.ts';

/** The header's word on the connection and on the saves waiting to upload. */
export function OfflineStatus() {
  const online = useOnline();
  const { entries } = useOutbox();
  return (
    <>
      {!online && (
        <Badge color="gray.8" variant="filled" role="status">
          {offlineTexts.offlineTitle}
        </Badge>
      )}
      {entries.length > 0 && (
        <Badge
          component={Link}
          to="/#waiting-uploads"
          // Mantine's orange.8 with white text is 3.6:1; this orange is 5.4:1.
          color={entries.some((entry) => entry.refusal !== null) ? 'red.8' : '#b54708'}
          variant="filled"
          style={{ cursor: 'pointer' }}
          aria-label={offlineTexts.badge(entries.length)}
          data-testid="outbox-badge"
        >
          {entries.length} to upload
        </Badge>
      )}
    </>
  );
}
