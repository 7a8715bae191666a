import { Group, Loader, Text } from '@mantine/core';

/** The spec's loading texts (section 2.8) for views that load part of a page. */
export const loadingTexts = {
  general: 'Loading...',
  results: 'Loading results...',
  doctorReview: 'Loading doctor review...',
} as const;

export type LoadingTextValue = (typeof loadingTexts)[keyof typeof loadingTexts];

/** A spinner with its text, announced politely to screen readers. */
export function LoadingText({ text = loadingTexts.general }: { text?: LoadingTextValue }) {
  return (
    <Group gap="sm" role="status">
      <Loader size="sm" aria-hidden />
      <Text>{text}</Text>
    </Group>
  );
}
