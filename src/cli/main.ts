import { ConfigError } from '../server/config.ts';

const usage = `Usage: triage <command> [options]

Commands:
  serve [--build-if-needed]   Start the server (PORT, HOST, DATA_DIR, DATABASE_URL; see README)
  migrate                     Bring the database schema up to date
  score                       Score JSON-lines assessment inputs from stdin to stdout
  seed --assessments N [--patients P] [--seed S]
                              Fill the database with N realistic, varied assessments
                              (with --patients, over P patient records with repeat visits)
  rescore --rule-set VERSION [--from DATE] [--to DATE] [--json]
                              Re-score the live assessments under a rule set version and show
                              what changes per condition (the impact analysis; progress on stderr)
  user add --username NAME --role ROLE [--display-name TEXT]
                              Create an account (the password is read from stdin)
  user list | disable NAME | enable NAME | set-password NAME | set-role NAME ROLE
                              Manage accounts (a new password is asked twice at a terminal)
  backup --to FILE            Copy the database while the server runs (SQLite; pg_dump on
                              PostgreSQL)
  restore --from FILE [--force]
                              Replace the database with a backup (refused while it is in use)
  api-token create --name NAME | list | revoke NAME
                              API tokens for another system's FHIR reads
                              (create prints the token once; only its hash is kept)
  cds-client add --issuer ISS (--jwks-file FILE | --jwks-url URL) [--fhir-server URL]...
             | list | remove ISS
                              Record systems allowed to call the CDS Hooks service, and the
                              FHIR servers each may name
  --help                      Show this help
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  // A malformed rule set file stops every command before it starts, naming the file and the path.
  const { checkRuleSets } = await import('../engine/index.ts');
  checkRuleSets();
  switch (command) {
    // Each command loads what it needs: `score` reading a pipe should not wait for the server.
    case 'serve': {
      const { runServeCommand } = await import('./commands/serve.ts');
      return runServeCommand(rest);
    }
    case 'migrate': {
      const { runMigrateCommand } = await import('./commands/migrate.ts');
      return runMigrateCommand();
    }
    case 'user': {
      const { runUserCommand } = await import('./commands/user.ts');
      return runUserCommand(rest, {
        stdin: process.stdin,
        stdout: process.stdout,
        stderr: process.stderr,
      });
    }
    case 'api-token': {
      const { runApiTokenCommand } = await import('./commands/api-token.ts');
      return runApiTokenCommand(rest, { stdout: process.stdout, stderr: process.stderr });
    }
    case 'cds-client': {
      const { runCdsClientCommand } = await import('./commands/cds-client.ts');
      return runCdsClientCommand(rest, { stdout: process.stdout, stderr: process.stderr });
    }
    case 'backup':
    case 'restore': {
      const { runBackupCommand } = await import('./commands/backup.ts');
      return runBackupCommand(command, rest, { stdout: process.stdout, stderr: process.stderr });
    }
    case 'seed': {
      const { runSeedCommand } = await import('./commands/seed.ts');
      return runSeedCommand(rest, { stdout: process.stdout, stderr: process.stderr });
    }
    case 'rescore': {
      const { runRescoreCommand } = await import('./commands/rescore.ts');
      return runRescoreCommand(rest, { stdout: process.stdout, stderr: process.stderr });
    }
    case 'score': {
      const { runScoreCommand } = await import('./commands/score.ts');
      return runScoreCommand(process.stdin, process.stdout, process.stderr);
    }
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      process.stdout.write(usage);
      return 0;
    default:
      process.stderr.write(`Unknown command: ${command}\n\n${usage}`);
      return 2;
  }
}

try {
  const code = await main(process.argv.slice(2));
  if (code !== 0) process.exitCode = code;
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 78;
  } else {
    throw error;
  }
}
