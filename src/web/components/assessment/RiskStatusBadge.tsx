import { Badge } from '@mantine/core';
import { RISK_STATUS_LABELS, type RiskStatus } from '../../../engine/index.ts';
import { riskStatusColors } from './display.ts';

export function RiskStatusBadge({
  status,
  size = 'md',
}: {
  status: RiskStatus;
  size?: 'md' | 'lg';
}) {
  return (
    <Badge
      color={riskStatusColors[status]}
      autoContrast
      size={size}
      variant="filled"
      style={{ textTransform: 'none' }}
    >
      {RISK_STATUS_LABELS[status]}
    </Badge>
  );
}
