import { defineConfig } from 'vitest/config';

/**
 * Suites of many seconds each: those that start the `triage` command as processes of their own
 * and wait on them, and the exports of 20,000 assessments that watch the heap. `npm run test:all`
 * and CI run them; `npm test` leaves them out to stay quick.
 */
const slowSuites = [
  'src/cli/commands/backup.test.ts',
  'src/cli/commands/serve-data-dir.test.ts',
  'src/cli/commands/serve-faults.test.ts',
  'src/cli/commands/serve-shutdown.test.ts',
  'src/server/database-failures.test.ts',
  'src/server/routes/exports-large.test.ts',
];

/**
 * Suites that change what the process shares (environment variables, globals) while they run:
 * each runs in a module graph of its own. Every other file shares its worker's modules with the
 * files before it, which saves loading the server once per file.
 */
const isolatedSuites = [
  'src/cli/commands/user.test.ts',
  'src/cli/commands/reset-mfa.test.ts',
  'src/web/api/reports.test.ts',
  'src/web/session/pendingSignOut.test.ts',
];

export default defineConfig({
  test: {
    environment: 'node',
    // Database suites share one PostgreSQL database per run; files run in parallel with
    // their own schema each.
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts'],
          exclude: [...slowSuites, ...isolatedSuites],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: isolatedSuites } },
      { extends: true, test: { name: 'slow', include: slowSuites } },
    ],
  },
});
