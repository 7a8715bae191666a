import { describe, expect, it } from 'vitest';
import { clientErrorReportSchema } from '../../../shared/api/client-errors.ts';
import { errorIdAt } from './errorId.ts';

describe('errorIdAt', () => {
  it('writes the time in upper-case base 36, which the server accepts', () => {
    const time = new Date(Date.UTC(2026, 10, 22, 9, 30));
    const id = errorIdAt(time);
    expect(id).toMatch(/^ERR-[0-9A-Z]+$/);
    expect(parseInt(id.slice('ERR-'.length), 36)).toBe(time.getTime());
    expect(clientErrorReportSchema.shape.errorId.safeParse(id).success).toBe(true);
  });

  it('differs for errors a millisecond apart', () => {
    expect(errorIdAt(new Date(1_000))).not.toBe(errorIdAt(new Date(1_001)));
  });
});
