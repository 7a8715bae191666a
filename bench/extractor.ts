/**
 * Extractor: extractCodes over the notes of N seeded assessments; MB a second.
 *
 * Baseline: ripgrep (Debian's package, PCRE2 since the pattern has look-behinds) printing every
 * match of the extractor's combined token pattern over the same notes dumped to a file, one a
 * line. The extractor does more than ripgrep (it classifies each token, checks labels around it
 * and its check digits), so the ratio is what that costs above finding the tokens.
 *
 *   node bench/extractor.ts [--engine sqlite|postgres|both] [--assessments 100000] [--keep]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { extractCodes } from '../src/server/extraction/index.ts';
import { TOKEN_PATTERN } from '../src/server/extraction/patterns.ts';
import {
  forEachEngine,
  parseBenchOptions,
  printTable,
  runDir,
  seededFixture,
  type Fixture,
} from './harness.ts';
import { requireTool } from './load.ts';

const rounds = 3;
const megabyte = 2 ** 20;

/** Every note, newlines flattened so that one line is one note (as ripgrep reads them). */
async function readNotes(fixture: Fixture): Promise<string[]> {
  const query = 'select notes from assessments where notes is not null order by id';
  let notes: string[];
  if (fixture.sqliteFile !== undefined) {
    const db = new DatabaseSync(fixture.sqliteFile, { readOnly: true });
    notes = (db.prepare(query).all() as { notes: string }[]).map((row) => row.notes);
    db.close();
  } else {
    const client = new pg.Client({ connectionString: fixture.databaseUrl });
    await client.connect();
    notes = (await client.query<{ notes: string }>(query)).rows.map((row) => row.notes);
    await client.end();
  }
  return notes.map((note) => note.replaceAll(/[\r\n]+/g, ' '));
}

/** Milliseconds for ripgrep to print every token match in `file` to nowhere; and the count. */
async function ripgrep(file: string): Promise<{ ms: number; matches: number }> {
  const started = performance.now();
  const child = spawn(
    'rg',
    ['-P', '--count-matches', '--no-filename', '-e', TOKEN_PATTERN.source, file],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    output += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0 && code !== 1) throw new Error(`rg exited with ${code}`);
  return { ms: performance.now() - started, matches: Number(output.trim() || 0) };
}

requireTool('rg', 'ripgrep');
const options = parseBenchOptions();

await forEachEngine(options, async (engine, fixtures) => {
  const fixture = await seededFixture(engine, options.assessments, { keep: options.keep });
  fixtures.push(fixture);
  const notes = await readNotes(fixture);
  const text = `${notes.join('\n')}\n`;
  const file = path.join(runDir(), `notes-${engine}-${options.assessments}.txt`);
  fs.writeFileSync(file, text);
  const megabytes = Buffer.byteLength(text) / megabyte;
  const tokenMatches = (text.match(TOKEN_PATTERN) ?? []).length;
  let extractorMs = Infinity;
  let ripgrepMs = Infinity;
  let codes = 0;
  let ripgrepMatches = 0;
  // Alternating rounds, best of each, so that load from other processes weighs on both alike.
  for (let round = 0; round < rounds; round++) {
    const started = performance.now();
    codes = 0;
    for (const note of notes) codes += extractCodes(note).length;
    extractorMs = Math.min(extractorMs, performance.now() - started);
    const rg = await ripgrep(file);
    ripgrepMs = Math.min(ripgrepMs, rg.ms);
    ripgrepMatches = rg.matches;
  }
  fs.rmSync(file, { force: true });
  if (ripgrepMatches !== tokenMatches) {
    console.warn(`ripgrep found ${ripgrepMatches} tokens, JavaScript's RegExp ${tokenMatches}`);
  }
  printTable(
    `Extractor on ${engine}: ${notes.length.toLocaleString('en')} notes, ${megabytes.toFixed(1)} MB, ${codes.toLocaleString('en')} codes from ${tokenMatches.toLocaleString('en')} tokens, best of ${rounds}`,
    [
      {
        measure: 'extractCodes MB a second',
        figure: megabytes / (extractorMs / 1000),
        baseline: megabytes / (ripgrepMs / 1000),
        unit: 'MB/s',
        ratioLabel: 'x ripgrep',
      },
    ],
  );
});
