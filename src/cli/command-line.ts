import { faultLine, ruleSetFault } from './faults.ts';
import { parseOptions, UsageError } from './options.ts';

/** The usage of `triage` itself. */
const usage = `Usage: triage <command> [options]

Commands:
  serve [--build-if-needed]   Start the server (PORT, HOST, DATA_DIR, DATABASE_URL; see README)
  migrate                     Bring the database schema up to date
  score                       Score JSON-lines assessment inputs from stdin to stdout
  seed --assessments N [--patients P] [--units U] [--seed S]
                              Fill the database with N realistic, varied assessments
                              (with --patients, over P patient records with repeat visits)
  rescore --rule-set VERSION [--from DATE] [--to DATE] [--json]
                              Re-score the live assessments under a rule set version and show
                              what changes per condition (the impact analysis; progress on stderr)
  user add --username NAME --role ROLE [--display-name TEXT] [--unit CODE]...
                              Create an account (the password is read from stdin)
  user list | disable NAME | enable NAME | set-password NAME | set-role NAME ROLE
                              Manage accounts (a new password is asked twice at a terminal)
  org-unit add --code C --name N [--parent CODE] | list | import --from FILE.csv
                              The tree of organisation units (clinics, districts, regions)
  backup --to FILE            Copy the database while the server runs (SQLite; pg_dump on
                              PostgreSQL)
  restore --from FILE [--force]
                              Replace the database with a backup (refused while it is in use)
  api-token create --name NAME [--unit CODE] | list | revoke NAME
                              API tokens for another system's FHIR reads of a unit's records
                              (create prints the token once; only its hash is kept)
  cds-client add --issuer ISS (--jwks-file FILE | --jwks-url URL) [--fhir-server URL]...
             [--unit CODE] | list | remove ISS
                              Record systems allowed to call the CDS Hooks service, and the
                              FHIR servers each may name
  fhir-client add --client-id ID (--jwks-file FILE | --jwks-url URL) --scope "SCOPES"
              [--unit CODE] | list | remove ID
                              Systems allowed to read the FHIR API by SMART Backend Services
                              (OAuth client credentials with a signed JWT), and their scopes
  --help                      Show this help; triage COMMAND --help shows a command's own
`;

interface Command {
  /** The command's usage, printed for --help and after a refused argument. */
  usage: string;
  run: (args: string[]) => Promise<number>;
  /** Whether its first argument names a subcommand (so an option there is refused). */
  subcommands?: boolean;
}

/** Where a command reads and writes: the process's own streams, or a test's. */
export interface CommandLineIo {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

// Each command loads what it needs: `score` reading a pipe should not wait for the server.
const commands = (io: CommandLineIo): Record<string, () => Promise<Command>> => ({
  serve: async () => {
    const { usage, runServeCommand } = await import('./commands/serve.ts');
    return { usage, run: runServeCommand };
  },
  migrate: async () => {
    const { usage, runMigrateCommand } = await import('./commands/migrate.ts');
    return { usage, run: runMigrateCommand };
  },
  user: async () => {
    const { usage, runUserCommand } = await import('./commands/user.ts');
    return {
      usage,
      run: (args) => runUserCommand(args, io),
      subcommands: true,
    };
  },
  'org-unit': async () => {
    const { usage, runOrgUnitCommand } = await import('./commands/org-unit.ts');
    return { usage, run: (args) => runOrgUnitCommand(args, io), subcommands: true };
  },
  'api-token': async () => {
    const { usage, runApiTokenCommand } = await import('./commands/api-token.ts');
    return { usage, run: (args) => runApiTokenCommand(args, io), subcommands: true };
  },
  'cds-client': async () => {
    const { usage, runCdsClientCommand } = await import('./commands/cds-client.ts');
    return { usage, run: (args) => runCdsClientCommand(args, io), subcommands: true };
  },
  'fhir-client': async () => {
    const { usage, runFhirClientCommand } = await import('./commands/fhir-client.ts');
    return { usage, run: (args) => runFhirClientCommand(args, io), subcommands: true };
  },
  backup: async () => {
    const { usage, runBackupCommand } = await import('./commands/backup.ts');
    return { usage, run: (args) => runBackupCommand('backup', args, io) };
  },
  restore: async () => {
    const { usage, runBackupCommand } = await import('./commands/backup.ts');
    return { usage, run: (args) => runBackupCommand('restore', args, io) };
  },
  seed: async () => {
    const { usage, runSeedCommand } = await import('./commands/seed.ts');
    return { usage, run: (args) => runSeedCommand(args, io) };
  },
  rescore: async () => {
    const { usage, runRescoreCommand } = await import('./commands/rescore.ts');
    return { usage, run: (args) => runRescoreCommand(args, io) };
  },
  score: async () => {
    const { usage, runScoreCommand } = await import('./commands/score.ts');
    return {
      usage,
      run: (args) => {
        parseOptions(args, {});
        return runScoreCommand(io.stdin, io.stdout, io.stderr);
      },
    };
  },
});

/** --help or -h before any `--` asks for the usage, wherever it stands. */
function asksForHelp(args: string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/** A malformed rule set file stops every command before it starts, in one line naming it. */
async function checkRuleSetFiles(): Promise<void> {
  const { checkRuleSets } = await import('../engine/index.ts');
  try {
    checkRuleSets();
  } catch (error) {
    throw ruleSetFault(error);
  }
}

async function dispatch(argv: string[], io: CommandLineIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.stdout.write(usage);
    return 0;
  }
  const known = commands(io);
  const load = Object.hasOwn(known, command) ? known[command] : undefined;
  if (load === undefined) {
    io.stderr.write(`Unknown command: ${command}\n\n${usage}`);
    return 2;
  }
  const chosen = await load();
  // Help does only that: no settings are read, nothing is opened, started or waited for.
  if (asksForHelp(rest)) {
    io.stdout.write(chosen.usage);
    return 0;
  }
  try {
    const first = rest[0];
    if (chosen.subcommands === true && first?.startsWith('-') === true) {
      throw new UsageError(`Unknown option '${first}'`);
    }
    await checkRuleSetFiles();
    return await chosen.run(rest);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`${error.message}\n${chosen.usage}`);
    return 2;
  }
}

/**
 * `triage ARGS`: runs the command and returns its exit code. A fault of the settings or the
 * machine is one line and exit 78; anything else, a fault of the product, is thrown with its
 * stack trace.
 */
export async function runCommandLine(argv: string[], io: CommandLineIo): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    const line = faultLine(error);
    if (line === undefined) throw error;
    io.stderr.write(`${line}\n`);
    return 78;
  }
}
