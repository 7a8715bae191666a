import { Notifications } from '@mantine/notifications';

/** Where notifications show; main.tsx loads it after the first view. */
export function NotificationsContainer() {
  return <Notifications position="top-right" />;
}
