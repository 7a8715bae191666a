import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts'],
    environment: 'node',
    // Database suites share one PostgreSQL database per run; files run in parallel with
    // their own schema each.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
