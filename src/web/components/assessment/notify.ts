import { notifications } from '@mantine/notifications';

// Mantine's notification close button has no name of its own.
const closeButtonProps = { 'aria-label': 'Close notification' };

export function notifySuccess(message: string): void {
  notifications.show({ color: 'green', message, closeButtonProps });
}

export function notifyFailure(message: string): void {
  notifications.show({ color: 'red', message, closeButtonProps });
}
