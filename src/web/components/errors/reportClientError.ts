import {
  clientErrorContextMaxLength,
  clientErrorMessageMaxLength,
  type ClientErrorReport,
} from '../../../shared/api/client-errors.ts';
import { apiRequest } from '../../api/client.ts';

/**
 * Sends an error the error screen showed to the server log. The server masks the message's digits
 * and keeps only its start; a failed report is dropped, since the screen must work offline too.
 */
export async function reportClientError(report: ClientErrorReport): Promise<void> {
  try {
    await apiRequest('/api/client-errors', {
      method: 'POST',
      body: {
        ...report,
        message: report.message.slice(0, clientErrorMessageMaxLength),
        context: report.context.slice(0, clientErrorContextMaxLength),
      },
    });
  } catch {
    // The browser's own log keeps the entry.
  }
}
