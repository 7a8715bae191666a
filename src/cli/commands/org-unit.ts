import fs from 'node:fs';
import { everythingScope } from '../../server/auth/scope.ts';
import { orgUnitCodeSchema, orgUnitNameSchema } from '../../shared/api/org-units.ts';
import type { AppContext } from '../../server/context.ts';
import { AppError } from '../../server/errors.ts';
import { orgUnitsRepository } from '../../server/db/repositories/org-units.ts';
import { createOrgUnit, listOrgUnits } from '../../server/services/org-units.ts';
import { configuredContext, operator, type WithContext } from '../command-context.ts';
import { parseCsvRecords } from '../csv-records.ts';
import { exitCodeForFault, parseOptions } from '../options.ts';

export const usage = `Usage:
  triage org-unit add --code CODE --name NAME [--parent CODE]
                                  Make an organisation unit (at the top without --parent)
  triage org-unit list            The tree: each unit after its parent, indented, with its state
  triage org-unit import --from FILE.csv
                                  Make the units of a CSV file with the columns code, name and
                                  parent_code (empty at the top), in any order; a unit that
                                  exists as the file says is left unchanged, so running it again
                                  changes nothing. Each row is reported by its line: created,
                                  unchanged or refused (with the reason); exit 1 when any is
                                  refused.

Codes are 1 to 32 letters, digits, '-' or '_', unique without regard to case.
`;

/** The id of the unit with the code, or a refusal naming the option or column. */
async function unitIdOf(context: AppContext, code: string, field: string): Promise<string> {
  const unit = await orgUnitsRepository.findByCode(context.database.db, code);
  if (unit === undefined) {
    throw new AppError(400, 'validation_failed', `${field}: No unit has the code ${code}.`, field);
  }
  return unit.id;
}

type RowOutcome = { line: number; outcome: 'created' | 'unchanged' | 'refused'; text: string };

interface ImportRow {
  line: number;
  code: string;
  name: string;
  parentCode: string;
}

/** The file's rows, checked one by one; a malformed row is refused at once. */
function readImportFile(path: string): { rows: ImportRow[]; refused: RowOutcome[] } {
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch (error) {
    const reason = error instanceof Error && 'code' in error ? String(error.code) : 'unreadable';
    throw new AppError(400, 'validation_failed', `--from: ${path} cannot be read (${reason}).`);
  }
  let records;
  try {
    records = parseCsvRecords(text);
  } catch (error) {
    throw new AppError(400, 'validation_failed', `--from: ${(error as Error).message}`);
  }
  const [header, ...body] = records;
  const columns = header?.cells.map((cell) => cell.trim().toLowerCase());
  if (columns?.join(',') !== 'code,name,parent_code') {
    throw new AppError(
      400,
      'validation_failed',
      '--from: The first line must name the columns code,name,parent_code.',
    );
  }
  const rows: ImportRow[] = [];
  const refused: RowOutcome[] = [];
  for (const { line, cells } of body) {
    const [code = '', name = '', parentCode = ''] = cells.map((cell) => cell.trim());
    const problem =
      cells.length !== 3
        ? `it has ${cells.length} cells, not 3`
        : (orgUnitCodeSchema.safeParse(code).error?.issues[0]?.message.replace(/^/, 'code: ') ??
          orgUnitNameSchema.safeParse(name).error?.issues[0]?.message.replace(/^/, 'name: ') ??
          (parentCode === ''
            ? undefined
            : orgUnitCodeSchema
                .safeParse(parentCode)
                .error?.issues[0]?.message.replace(/^/, 'parent_code: ')));
    if (problem === undefined) rows.push({ line, code, name, parentCode });
    else refused.push({ line, outcome: 'refused', text: `${code}: refused, ${problem}` });
  }
  return { rows, refused };
}

/**
 * Makes the rows' units, parents first whatever the order of the file: each pass makes the rows
 * whose parent exists, until a pass makes none. A unit that exists with the row's name and parent
 * is unchanged; with another, refused (the API's PUT changes a unit, at its version).
 */
async function importRows(context: AppContext, rows: ImportRow[]): Promise<RowOutcome[]> {
  const db = context.database.db;
  const outcomes: RowOutcome[] = [];
  let waiting = rows;
  for (let progress = true; progress && waiting.length > 0;) {
    progress = false;
    const next: ImportRow[] = [];
    for (const row of waiting) {
      const parent =
        row.parentCode === '' ? null : await orgUnitsRepository.findByCode(db, row.parentCode);
      if (parent === undefined) {
        next.push(row);
        continue;
      }
      progress = true;
      const parentId = parent?.id ?? null;
      const existing = await orgUnitsRepository.findByCode(db, row.code);
      if (existing !== undefined) {
        const same = existing.name === row.name && existing.parent_id === parentId;
        outcomes.push({
          line: row.line,
          outcome: same ? 'unchanged' : 'refused',
          text: same
            ? `${existing.code}: unchanged`
            : `${row.code}: refused, the unit ${existing.code} exists with another ${existing.name === row.name ? 'parent' : 'name'}`,
        });
        continue;
      }
      try {
        const made = await createOrgUnit(context, operator, {
          code: row.code,
          name: row.name,
          parentId,
        });
        outcomes.push({ line: row.line, outcome: 'created', text: `${made.code}: created` });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        outcomes.push({
          line: row.line,
          outcome: 'refused',
          text: `${row.code}: refused, ${error.message}`,
        });
      }
    }
    waiting = next;
  }
  for (const row of waiting) {
    outcomes.push({
      line: row.line,
      outcome: 'refused',
      text: `${row.code}: refused, no unit has the parent code ${row.parentCode}`,
    });
  }
  return outcomes;
}

export async function runOrgUnitCommand(
  args: string[],
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
  withContext: WithContext = configuredContext,
): Promise<number> {
  const [subcommand, ...rest] = args;
  try {
    switch (subcommand) {
      case 'add': {
        const { values } = parseOptions(rest, {
          code: { type: 'string' },
          name: { type: 'string' },
          parent: { type: 'string' },
        });
        if (values.code === undefined || values.name === undefined) break;
        const code = orgUnitCodeSchema.safeParse(values.code);
        const name = orgUnitNameSchema.safeParse(values.name);
        if (!code.success || !name.success) {
          const message = code.error?.issues[0]?.message ?? name.error?.issues[0]?.message;
          throw new AppError(
            400,
            'validation_failed',
            `--${code.success ? 'name' : 'code'}: ${message}`,
          );
        }
        const made = await withContext(async (context) => {
          const parentId =
            values.parent === undefined ? null : await unitIdOf(context, values.parent, '--parent');
          return createOrgUnit(context, operator, {
            code: code.data,
            name: name.data,
            parentId,
          });
        });
        io.stdout.write(
          `Created unit ${made.code} (${made.name})${values.parent === undefined ? ' at the top' : ` under ${values.parent}`}.\n`,
        );
        return 0;
      }
      case 'list': {
        parseOptions(rest, {});
        const tree = await withContext((context) => listOrgUnits(context, everythingScope));
        const byId = new Map(tree.items.map((unit) => [unit.id, unit]));
        io.stdout.write('code\tname\tparent\tstate\n');
        for (const unit of tree.items) {
          const parent = unit.parentId === null ? '-' : (byId.get(unit.parentId)?.code ?? '-');
          io.stdout.write(
            `${'  '.repeat(unit.depth)}${unit.code}\t${unit.name}\t${parent}\t${unit.closedAt === null ? 'open' : `closed ${unit.closedAt}`}\n`,
          );
        }
        return 0;
      }
      case 'import': {
        const { values } = parseOptions(rest, { from: { type: 'string' } });
        if (values.from === undefined) break;
        const { rows, refused } = readImportFile(values.from);
        const outcomes = [
          ...refused,
          ...(await withContext((context) => importRows(context, rows))),
        ].sort((a, b) => a.line - b.line);
        for (const { line, text } of outcomes) io.stdout.write(`line ${line}: ${text}\n`);
        const count = (outcome: RowOutcome['outcome']) =>
          outcomes.filter((row) => row.outcome === outcome).length;
        io.stdout.write(
          `${count('created')} created, ${count('unchanged')} unchanged, ${count('refused')} refused.\n`,
        );
        return count('refused') === 0 ? 0 : 1;
      }
      default:
        if (subcommand !== undefined) parseOptions(rest, {}, true);
        break;
    }
  } catch (error) {
    return exitCodeForFault(error, io.stderr, usage);
  }
  io.stderr.write(usage);
  return 2;
}
