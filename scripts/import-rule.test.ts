import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: the ESLint config is plain JavaScript without type declarations.
import { layerRules } from '../eslint.config.js';

const eslint = new ESLint({
  overrideConfigFile: true,
  overrideConfig: [
    { files: ['**/*.ts', '**/*.tsx'], languageOptions: { parser: tseslint.parser } },
    ...(layerRules as ESLint.Options['overrideConfig'][]),
  ] as ESLint.Options['overrideConfig'],
});

async function violations(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

describe('the one-way import rules', () => {
  it.each([
    ['src/engine/score.ts', "import { x } from '../server/app.ts';"],
    ['src/engine/score.ts', "import { x } from '../shared/texts.ts';"],
    ['src/engine/score.ts', "import fs from 'node:fs';"],
    ['src/shared/api/x.ts', "import { x } from '../../server/app.ts';"],
    ['src/shared/texts.ts', "import fs from 'node:fs';"],
    ['src/web/App.tsx', "import { x } from '../server/app.ts';"],
    ['src/server/app.ts', "import { x } from '../web/App.tsx';"],
    ['src/web/components/Bar.tsx', "import { x } from '../pages/dashboard/x.ts';"],
    ['src/web/components/assessment/Bar.tsx', "import { x } from '../../pages/assessment/x.ts';"],
    ['src/web/components/assessment/Bar.tsx', "import { x } from '../../../server/app.ts';"],
    ['src/web/hooks/useX.ts', "import { x } from '../pages/assessment/form.ts';"],
    ['src/web/offline/outbox.ts', "import { x } from '../pages/assessment/draft.ts';"],
    ['src/web/session/SessionProvider.tsx', "import { x } from '../pages/assessment/draft.ts';"],
    ['src/web/assessment/form.ts', "import { x } from '../pages/assessment/Step.tsx';"],
  ])('forbids %s: %s', async (file, code) => {
    expect(await violations(file, code)).toEqual(['no-restricted-imports']);
  });

  it.each([
    ['src/shared/api/x.ts', "import { x } from '../../engine/index.ts';"],
    ['src/server/app.ts', "import { x } from '../shared/texts.ts';"],
    ['src/web/App.tsx', "import { x } from '../engine/index.ts';"],
    ['src/cli/main.ts', "import { x } from '../server/app.ts';"],
    ['src/web/pages/review/ReviewPage.tsx', "import { x } from '../assessment/x.ts';"],
    ['src/web/components/review/Bar.tsx', "import { x } from '../assessment/display.ts';"],
    ['src/web/App.tsx', "import { x } from './pages/DashboardPage.tsx';"],
    ['src/web/pages/assessment/Step.tsx', "import { x } from '../../assessment/form.ts';"],
    ['src/web/offline/outbox.ts', "import { x } from '../assessment/draft.ts';"],
  ])('allows %s: %s', async (file, code) => {
    expect(await violations(file, code)).toEqual([]);
  });
});
