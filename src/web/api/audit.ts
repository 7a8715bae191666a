import type { z } from 'zod';
import { auditListSchema, type AuditAction } from '../../shared/api/audit.ts';
import { apiRequest, apiUrl } from './client.ts';

export type AuditPage = z.infer<typeof auditListSchema>;

/** The filters the audit trail and its CSV share; dates are YYYY-MM-DD. */
export interface AuditFilters {
  user?: string;
  action?: AuditAction;
  from?: string;
  to?: string;
}

export const auditPageSize = 50;

export function listAudit(
  filters: AuditFilters,
  before?: number,
  signal?: AbortSignal,
): Promise<AuditPage> {
  return apiRequest('/api/audit', {
    query: { ...filters, limit: auditPageSize, before },
    schema: auditListSchema,
    signal,
  });
}

/** Where the browser downloads the whole filtered trail as CSV. */
export function auditCsvUrl(filters: AuditFilters): string {
  return apiUrl('/api/audit.csv', { ...filters });
}
