#!/usr/bin/env node
// The CLI is TypeScript run directly by Node 24 (type stripping); older Node cannot load it.
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  process.stderr.write(
    `triage needs Node.js 24 or later (this is ${process.version}). Run it through npm (npm run triage -- <command>) or npx, which use the Node pinned in devDependencies.\n`,
  );
  process.exit(1);
}
await import('../src/cli/main.ts');
