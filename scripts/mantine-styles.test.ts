import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const webRoot = path.join(import.meta.dirname, '../src/web');
const mantineStyles = path.join(import.meta.dirname, '../node_modules/@mantine/core/styles');
const fullStylesheet = fs.readFileSync(path.join(mantineStyles, '../styles.css'), 'utf8');
const main = fs.readFileSync(path.join(webRoot, 'main.tsx'), 'utf8');

/** The per-component stylesheets main.tsx imports, in its order. */
const imported = [...main.matchAll(/^import '@mantine\/core\/styles\/(\w+)\.css';$/gm)].map(
  (match) => match[1] ?? '',
);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.') ? [file] : [];
  });
}

/** The names the web imports as values from @mantine/core. */
function usedComponents(): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles(webRoot)) {
    const text = fs.readFileSync(file, 'utf8');
    for (const [, list] of text.matchAll(/import \{([^}]*)\} from '@mantine\/core'/g)) {
      for (const name of (list ?? '').split(',').map((part) => part.trim())) {
        if (name !== '' && !name.startsWith('type ')) names.add(name);
      }
    }
  }
  return names;
}

describe("the web's Mantine stylesheets", () => {
  it('include the stylesheet of every Mantine component the web imports', () => {
    const missing = [...usedComponents()].filter(
      (name) => fs.existsSync(path.join(mantineStyles, `${name}.css`)) && !imported.includes(name),
    );
    expect(missing).toEqual([]);
  });

  it("keep the order of Mantine's full stylesheet, where a component follows what it uses", () => {
    const positionInFull = (name: string) => {
      const start = fs.readFileSync(path.join(mantineStyles, `${name}.css`), 'utf8').slice(0, 200);
      return fullStylesheet.indexOf(start);
    };
    const positions = imported.map(positionInFull);
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });
});
