import type { ReactNode } from 'react';
import { Alert, Box, List, Text } from '@mantine/core';

type WrapperPart = 'label' | 'input' | 'description' | 'error';

/** The description under the input, so that a note stands below the field it is about. */
const noteBelowInput: WrapperPart[] = ['label', 'input', 'description', 'error'];

/**
 * The props that show what the record says of a field ('from the record, 2 Oct 2026', or a value
 * too old to fill in) under it, as its description: the field's own description (its range)
 * follows the note, and screen readers read both with the field. A field the record filled keeps
 * its description below while the note is gone (null), so that it does not move under the typing.
 */
export function withRecordNote(
  note: string | null | undefined,
  description?: ReactNode,
): { description?: ReactNode; inputWrapperOrder?: WrapperPart[] } {
  if (note === undefined) return description === undefined ? {} : { description };
  if (note === null) return { description, inputWrapperOrder: noteBelowInput };
  return {
    description:
      description === undefined ? (
        note
      ) : (
        <>
          {/* In the description's paragraph: a span on a line of its own, and a space between
              the two where they are read as one text. */}
          <Box component="span" display="block">
            {note}
          </Box>{' '}
          {description}
        </>
      ),
    inputWrapperOrder: noteBelowInput,
  };
}

export const unreadTexts = {
  title: 'Not read from the record',
  fillIn: 'Fill these in by hand.',
} as const;

/** Step 1's list of what the record could not be asked ('Condition: Not granted by …'). */
export function UnreadFromRecord({ lines }: { lines: readonly string[] }) {
  if (lines.length === 0) return null;
  return (
    <Alert color="yellow" title={unreadTexts.title}>
      <List size="sm">
        {lines.map((line) => (
          <List.Item key={line}>{line}</List.Item>
        ))}
      </List>
      <Text size="sm" mt="xs">
        {unreadTexts.fillIn}
      </Text>
    </Alert>
  );
}
