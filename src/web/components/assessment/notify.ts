import { notifications } from '@mantine/notifications';

export function notifySuccess(message: string): void {
  notifications.show({ color: 'green', message });
}

export function notifyFailure(message: string): void {
  notifications.show({ color: 'red', message });
}
