import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** What the built web app is made from: its code, the code it imports, and how it is built. */
const webSources = [
  'src/web',
  'src/shared',
  'src/engine',
  'vite.config.ts',
  'postcss.config.cjs',
  'package.json',
  'package-lock.json',
];

/** Where the hash of the sources a build was made from is kept: beside the build's folder. */
export function sourceHashFile(webRoot: string): string {
  return `${webRoot}.sources-sha256`;
}

function filesUnder(root: string, relative: string): string[] {
  const absolute = path.join(root, relative);
  if (!fs.existsSync(absolute)) return [];
  if (!fs.statSync(absolute).isDirectory()) return [relative];
  return fs
    .readdirSync(absolute, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

/** A SHA-256 of every web source's path and content, in a fixed order. */
export function webSourcesHash(root: string): string {
  const hash = crypto.createHash('sha256');
  const files = webSources.flatMap((source) => filesUnder(root, source)).sort();
  for (const file of files) {
    const content = fs.readFileSync(path.join(root, file));
    hash.update(`${file.split(path.sep).join('/')}\0${content.length}\0`);
    hash.update(content);
  }
  return hash.digest('hex');
}

/**
 * Builds the web app when there is none or when its sources differ from those it was built from
 * (an upgrade), then writes the hash of those sources beside it. Returns why it built, or
 * undefined when the build was current.
 */
export async function buildWebIfNeeded(options: {
  root: string;
  webRoot: string;
  build: () => Promise<void>;
  say: (line: string) => void;
}): Promise<'missing' | 'changed' | undefined> {
  const { root, webRoot, build, say } = options;
  const hash = webSourcesHash(root);
  const hashFile = sourceHashFile(webRoot);
  const built = fs.existsSync(path.join(webRoot, 'index.html'));
  const builtFrom = fs.existsSync(hashFile) ? fs.readFileSync(hashFile, 'utf8').trim() : undefined;
  if (built && builtFrom === hash) return undefined;
  const reason = built ? 'changed' : 'missing';
  say(
    reason === 'missing'
      ? 'Building the web app (first start)...'
      : 'Building the web app (its sources differ from the last build)...',
  );
  await build();
  fs.writeFileSync(hashFile, `${hash}\n`);
  return reason;
}
