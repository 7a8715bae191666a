import type { MantineColor } from '@mantine/core';
import { RISK_STATUS_LABELS, type RiskStatus } from '../../../engine/index.ts';

/** Most urgent first, as the population panel stacks and lists them. */
export const riskStatusOrder = [
  'TRUE',
  'MAYBE',
  'FALSE',
  'DIAGNOSED',
  'UNKNOWN',
] as const satisfies readonly RiskStatus[];

/** The spec's status colours (section 3.6): red, yellow, green, purple and grey. */
export const riskStatusColors: Record<RiskStatus, MantineColor> = {
  TRUE: 'red.7',
  MAYBE: 'yellow.5',
  FALSE: 'green.7',
  DIAGNOSED: 'grape.7',
  UNKNOWN: 'gray.5',
};

export function riskStatusLabel(status: RiskStatus): string {
  return RISK_STATUS_LABELS[status];
}

/** The population panel's shorter column and legend names; its caption says they are risks. */
export const populationStatusLabels: Record<RiskStatus, string> = {
  TRUE: 'High',
  MAYBE: 'Moderate',
  FALSE: 'Low',
  DIAGNOSED: 'Diagnosed',
  UNKNOWN: 'Insufficient Data',
};
