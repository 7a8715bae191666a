import { Group, Radio } from '@mantine/core';
import { withRecordNote } from './RecordNote.tsx';

/** A Yes/No question; unanswered until one is chosen (an unanswered question does not apply). */
export function YesNoQuestion({
  label,
  value,
  onChange,
  disabled = false,
  note,
}: {
  label: string;
  value: boolean | undefined;
  onChange: (answer: boolean) => void;
  disabled?: boolean;
  /** What the record says of the answer, under the question (a launch from a record system). */
  note?: string | null | undefined;
}) {
  const selected = value === undefined ? null : value ? 'yes' : 'no';
  return (
    <Radio.Group
      label={label}
      value={selected}
      onChange={(answer) => onChange(answer === 'yes')}
      disabled={disabled}
      {...withRecordNote(note)}
    >
      <Group gap="lg" mt={6}>
        <Radio value="yes" label="Yes" />
        <Radio value="no" label="No" />
      </Group>
    </Radio.Group>
  );
}
