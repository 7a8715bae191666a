import { TextInput } from '@mantine/core';
import type { DateRange } from './dateRange.ts';

/**
 * The Start Date and End Date inputs every date range of the product is typed into; what the
 * range is for (a filter, an impact analysis) is the caller's form, and `error` is said beside
 * the End Date.
 */
export function DateRangeFields({
  dates,
  error,
  onChange,
}: {
  dates: DateRange;
  error: string | null;
  onChange: (dates: DateRange) => void;
}) {
  return (
    <>
      <TextInput
        type="date"
        label="Start Date"
        value={dates.from}
        onChange={(event) => onChange({ ...dates, from: event.currentTarget.value })}
        w={{ base: '100%', xs: 170 }}
      />
      <TextInput
        type="date"
        label="End Date"
        value={dates.to}
        error={error}
        onChange={(event) => onChange({ ...dates, to: event.currentTarget.value })}
        w={{ base: '100%', xs: 170 }}
      />
    </>
  );
}
