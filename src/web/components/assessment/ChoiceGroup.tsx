import { Group, Radio } from '@mantine/core';

/** One choice among a few options shown side by side, such as a symptom's severity. */
export function ChoiceGroup<T extends string>({
  label,
  options,
  value,
  onChange,
  disabled = false,
}: {
  label: string;
  options: ReadonlyArray<{ value: T; label: string }>;
  value: T | undefined;
  onChange: (value: T) => void;
  disabled?: boolean;
}) {
  return (
    <Radio.Group
      label={label}
      value={value ?? null}
      onChange={(chosen) => {
        const option = options.find((o) => o.value === chosen);
        if (option !== undefined) onChange(option.value);
      }}
      disabled={disabled}
    >
      <Group gap="lg" mt={6}>
        {options.map((option) => (
          <Radio key={option.value} value={option.value} label={option.label} />
        ))}
      </Group>
    </Radio.Group>
  );
}
