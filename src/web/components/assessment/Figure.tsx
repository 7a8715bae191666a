import type { ReactNode } from 'react';
import { Text } from '@mantine/core';

/** A figure the results lead with: its name small and dimmed, the value large. */
export function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} fz="xl">
        {children}
      </Text>
    </div>
  );
}
