import { Link } from 'react-router';
import { Alert, Button, Group, Text } from '@mantine/core';
import { can } from '../../../shared/permissions.ts';
import { useOrgUnits } from '../../hooks/useOrgUnits.ts';
import { useSignedInUser } from '../../hooks/useSession.ts';

/**
 * Says which organisation unit the dashboard shows (`/?unit=ID`: the unit and those below it),
 * with the way back to all the user's units and to the unit's roll-up.
 */
export function DashboardUnit({ unitId }: { unitId: string }) {
  const user = useSignedInUser();
  const units = useOrgUnits();
  const unit = units.data?.find((item) => item.id === unitId);
  const name = unit === undefined ? 'One organisation unit' : `${unit.name} (${unit.code})`;
  return (
    <Alert color="blue" variant="light" title={`Showing ${name}`} component="section">
      <Text size="sm">The figures below are of this unit and the units below it.</Text>
      <Group gap="sm" mt="sm">
        <Button component={Link} to="/" variant="default" size="xs">
          Show all my units
        </Button>
        {can(user.role, 'orgUnit.summary') && (
          <Button
            component={Link}
            to={`/district/${encodeURIComponent(unitId)}`}
            variant="light"
            size="xs"
          >
            Roll-up of this unit
          </Button>
        )}
      </Group>
    </Alert>
  );
}
