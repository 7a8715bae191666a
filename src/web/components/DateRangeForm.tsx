import { useState, type FormEvent } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { activeFiltersText, dateRangeError, noDates, type DateRange } from './dateRange.ts';
import { DateRangeFields } from './DateRangeFields.tsx';

/**
 * Start Date and End Date with Apply Filter and Clear Filter, as the history and the Doctor
 * Agreement filter by days; a range the server would refuse is said beside the inputs instead.
 */
export function DateRangeForm({
  label,
  applied,
  onApply,
}: {
  /** The form's accessible name. */
  label: string;
  applied: DateRange;
  onApply: (dates: DateRange) => void;
}) {
  const [dates, setDates] = useState<DateRange>(applied);
  const [error, setError] = useState<string | null>(null);
  const active = activeFiltersText(applied);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = dateRangeError(dates);
    setError(problem);
    if (problem === null) onApply(dates);
  }

  return (
    <form onSubmit={submit} aria-label={label} noValidate>
      <Stack gap={6}>
        <Group gap="sm" align="flex-end">
          <DateRangeFields dates={dates} error={error} onChange={setDates} />
          <Group gap="sm">
            <Button type="submit" variant="light">
              Apply Filter
            </Button>
            <Button
              variant="default"
              onClick={() => {
                setDates(noDates);
                setError(null);
                onApply(noDates);
              }}
            >
              Clear Filter
            </Button>
          </Group>
        </Group>
        {active !== null && (
          <Text size="sm" fw={500}>
            {active}
          </Text>
        )}
      </Stack>
    </form>
  );
}
