import { MultiSelect, TextInput } from '@mantine/core';
import type { OrgUnitReference } from '../../../shared/api/org-units.ts';
import { errorMessage } from '../../forms.ts';
import { useOrgUnits } from '../../hooks/useOrgUnits.ts';
import { onlyUnit, unitLabel, unitOptions } from './unitChoice.ts';

const description = 'The user works in these units and in every unit below them.';

/**
 * The units a user works in, chosen from the tree (at least one). While the tree has one unit and
 * the user works in it, there is nothing to choose: it is shown, not offered.
 */
export function UnitsInput({
  value,
  onChange,
  error,
  current = [],
}: {
  /** Unit ids. */
  value: readonly string[];
  onChange: (ids: string[]) => void;
  error: string | undefined;
  /** The units the user works in now; empty for a new user. */
  current?: readonly OrgUnitReference[];
}) {
  const tree = useOrgUnits();
  const only = tree.data === undefined ? undefined : onlyUnit(tree.data);
  if (only !== undefined && value.length === 1 && value[0] === only.id) {
    return (
      <TextInput
        label="Units"
        description="The only unit: every user works in it while there is no other."
        readOnly
        value={unitLabel(only)}
        error={error}
      />
    );
  }
  const options = unitOptions(tree.data ?? [], current);
  const depths = new Map(options.map((option) => [option.value, option.depth]));
  const loadError = tree.isError
    ? `The units could not be loaded: ${errorMessage(tree.error)}`
    : undefined;
  return (
    <MultiSelect
      label="Units"
      description={description}
      placeholder={tree.isPending ? 'Loading units...' : value.length === 0 ? 'Choose units' : ''}
      required
      searchable
      nothingFoundMessage="No unit matches"
      disabled={tree.data === undefined}
      data={options}
      value={[...value]}
      onChange={onChange}
      error={error ?? loadError}
      renderOption={({ option }) => (
        <span style={{ paddingLeft: `${depths.get(option.value) ?? 0}rem` }}>{option.label}</span>
      )}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
