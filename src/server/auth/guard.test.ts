import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { installGuard } from './guard.ts';

/** Registers one route admitting API tokens; the guard decides at registration, not per request. */
async function register(method: 'GET' | 'POST' | 'DELETE', url: string): Promise<void> {
  const app = Fastify();
  // No request is made: the context is only read while answering one.
  installGuard(app, {} as AppContext);
  try {
    app.route({
      method,
      url,
      config: { access: 'fhir.read', apiToken: 'read' },
      handler: async () => ({}),
    });
    await app.ready();
  } finally {
    await app.close();
  }
}

describe('the routes that may admit an API token', () => {
  it('are the FHIR reads and the FHIR searches by POST, and nothing else', async () => {
    await register('GET', '/fhir/Patient/:id');
    await register('POST', '/fhir/RiskAssessment/_search');
    await expect(register('POST', '/fhir/RiskAssessment')).rejects.toThrow(/is not a read/);
    await expect(register('POST', '/fhir/RiskAssessment/_search/x')).rejects.toThrow(
      /is not a read/,
    );
    await expect(register('DELETE', '/fhir/Patient/:id')).rejects.toThrow(/is not a read/);
    await expect(register('POST', '/api/patients/_search')).rejects.toThrow(/is not a read/);
    await expect(register('GET', '/api/patients')).rejects.toThrow(/is not a FHIR read/);
  });

  it("take DELETE only at a bulk export's status address, where a caller cancels their own job", async () => {
    await register('DELETE', '/fhir/bulk-status/:jobId');
    await register('GET', '/fhir/bulk-files/:jobId/:file');
    await expect(register('DELETE', '/fhir/bulk-files/:jobId/:file')).rejects.toThrow(
      /is not a read/,
    );
    await expect(register('DELETE', '/fhir/bulk-status/:jobId/x')).rejects.toThrow(/is not a read/);
    await expect(register('POST', '/fhir/bulk-status/:jobId')).rejects.toThrow(/is not a read/);
    await expect(register('DELETE', '/fhir/$export')).rejects.toThrow(/is not a read/);
  });
});
