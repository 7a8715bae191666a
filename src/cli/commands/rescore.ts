import {
  CONDITION_DISPLAY_NAMES,
  CONDITIONS,
  RISK_STATUSES,
  RULE_SETS,
  type RuleSet,
} from '../../engine/index.ts';
import { everythingScope } from '../../server/auth/scope.ts';
import type {
  ConditionImpact,
  ImpactAgreement,
  ImpactResult,
} from '../../shared/rule-set-impact.ts';
import { impactRequestSchema } from '../../shared/rule-set-impact.ts';
import { owaspScryptCost } from '../../server/auth/passwords.ts';
import { loadConfig } from '../../server/config.ts';
import type { AppContext } from '../../server/context.ts';
import { analyseRuleSetImpact } from '../../server/services/rule-set-impact.ts';
import { openCommandDatabase } from '../command-context.ts';
import { parseOptions, UsageError } from '../options.ts';

export const usage =
  'Usage: triage rescore --rule-set VERSION [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--json]\n';

interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

type Parsed =
  | { ruleSet: RuleSet; from: string | undefined; to: string | undefined; json: boolean }
  | { refusal: string };

function parse(args: string[]): Parsed {
  let values;
  try {
    ({ values } = parseOptions(args, {
      'rule-set': { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      json: { type: 'boolean', default: false },
    }));
  } catch (error) {
    if (error instanceof UsageError) return { refusal: error.message };
    throw error;
  }
  const version = values['rule-set'];
  if (version === undefined) return { refusal: '--rule-set VERSION is required.' };
  const ruleSet = RULE_SETS.find((each) => each.version === version);
  if (ruleSet === undefined) {
    const known = RULE_SETS.map((each) => each.version).join(', ');
    return { refusal: `There is no rule set version ${version}. Known versions: ${known}.` };
  }
  const range = impactRequestSchema.safeParse({ from: values.from, to: values.to });
  if (!range.success) {
    const issue = range.error.issues[0];
    return { refusal: `--${String(issue?.path[0] ?? 'from')}: ${issue?.message ?? 'invalid'}.` };
  }
  return { ruleSet, from: range.data.from, to: range.data.to, json: values.json };
}

function percent(share: number | null): string {
  return share === null ? '-' : `${(share * 100).toFixed(1)}%`;
}

function agreementLine(label: string, agreement: ImpactAgreement): string {
  const kappa = agreement.kappa === null ? 'kappa -' : `kappa ${agreement.kappa.toFixed(2)}`;
  return `  ${label}: ${agreement.agreed} of ${agreement.reviews} reviews agree (${percent(agreement.share)}), ${kappa} over ${agreement.kappaReviews}`;
}

function scoreChangeLine({ scoreChanged, scoreChangeMean }: ConditionImpact): string {
  if (scoreChanged === 0 || scoreChangeMean === null) return 'no total score changes';
  return `${scoreChanged.toLocaleString('en')} change total score (mean ${scoreChangeMean > 0 ? '+' : ''}${scoreChangeMean.toFixed(2)})`;
}

/** The result as a table per condition, for a person at a terminal. */
export function impactTable(result: ImpactResult): string {
  const range =
    result.from === null && result.to === null
      ? 'all dates'
      : `${result.from ?? 'the start'} to ${result.to ?? 'today'}`;
  const lines = [
    `Rule set ${result.version}: ${result.title}`,
    `${result.assessments.toLocaleString('en')} live assessments re-scored (${range})`,
  ];
  const width = Math.max(9, ...RISK_STATUSES.map((status) => status.length)) + 2;
  const cell = (text: string | number) => String(text).padStart(width);
  for (const condition of CONDITIONS) {
    const impact = result.conditions[condition];
    lines.push(
      '',
      `${CONDITION_DISPLAY_NAMES[condition]} (${condition}): ${impact.changed.toLocaleString('en')} change status, ${scoreChangeLine(impact)}`,
      `  ${'stored \\ new'.padEnd(width)}${RISK_STATUSES.map(cell).join('')}`,
      ...RISK_STATUSES.map(
        (stored) =>
          `  ${stored.padEnd(width)}${RISK_STATUSES.map((next) => cell(impact.matrix[stored][next].toLocaleString('en'))).join('')}`,
      ),
      agreementLine('Stored rules', impact.agreement.stored),
      agreementLine('This version', impact.agreement.new),
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * `triage rescore`: the impact analysis of a rule set version (as POST
 * /api/rule-sets/:version/impact) over the database the environment names; progress on stderr,
 * the result on stdout (`--json`: exactly the API's object).
 */
export async function runRescoreCommand(
  args: string[],
  io: Io,
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  const parsed = parse(args);
  if ('refusal' in parsed) {
    io.stderr.write(`${parsed.refusal}\n${usage}`);
    return 2;
  }
  const config = loadConfig(env);
  const { database } = await openCommandDatabase(config);
  try {
    const context: AppContext = {
      config,
      database,
      now: () => new Date(),
      passwordCost: owaspScryptCost,
    };
    const started = performance.now();
    let lastReport = -Infinity;
    const result = await analyseRuleSetImpact(
      context,
      everythingScope,
      parsed.ruleSet,
      { from: parsed.from, to: parsed.to },
      {
        onProgress: ({ done, total }) => {
          const now = performance.now();
          if (now - lastReport < 1000 && done < total) return;
          lastReport = now;
          const seconds = ((now - started) / 1000).toFixed(1);
          io.stderr.write(
            `Re-scored ${done.toLocaleString('en')} of ${total.toLocaleString('en')} assessments (${seconds} s)\n`,
          );
        },
      },
    );
    io.stdout.write(parsed.json ? `${JSON.stringify(result)}\n` : impactTable(result));
    return 0;
  } finally {
    await database.close();
  }
}
