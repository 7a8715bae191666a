// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

/** Folders a layer must not import from: engine, then shared, then server or web. */
const forbidden = {
  engine: ['shared', 'server', 'web', 'cli'],
  shared: ['server', 'web', 'cli'],
  server: ['web', 'cli'],
  web: ['server', 'cli'],
  cli: ['web'],
};

/** @param {string[]} layers */
function layerPatterns(layers) {
  return layers.map((layer) => ({
    group: [`**/${layer}/**`, `../${layer}`, `../../${layer}`],
    message: `Imports flow one way (docs/ARCHITECTURE.md): this layer may not import from src/${layer}.`,
  }));
}

const nodeBuiltins = {
  group: ['node:*'],
  message: 'The engine and the shared contract are pure: no Node APIs (docs/ARCHITECTURE.md).',
};

const webPages = {
  group: ['**/pages/**'],
  message:
    'Only the router (App.tsx) imports pages: move what others use into a feature folder (src/web/assessment) or beside the components.',
};

/** The import rules alone, also used by the test that proves they are enforced. */
export const layerRules = [
  ...Object.entries(forbidden).map(([layer, layers]) => ({
    files: [`src/${layer}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...layerPatterns(layers),
            ...(layer === 'engine' || layer === 'shared' ? [nodeBuiltins] : []),
          ],
        },
      ],
    },
  })),
  // A later block's options replace the web's, so the web's layer patterns are repeated here.
  // Pages import what lies below them; below them nothing imports a page but the router.
  {
    files: ['src/web/**/*.{ts,tsx}'],
    ignores: ['src/web/pages/**', 'src/web/App.tsx'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...layerPatterns(forbidden.web), webPages] }],
    },
  },
];

export default tseslint.config(
  {
    ignores: ['dist/**', 'node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['eslint.config.js', 'bin/triage.js', 'postcss.config.cjs'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      // Fastify plugins are async by contract even when they register routes synchronously.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  ...layerRules,
  {
    files: ['src/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Each browser test's `test` checks with axe whatever page it ends on (e2e/page-checks.ts).
    files: ['e2e/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              importNames: ['test', 'expect'],
              message: "Take test and expect from './page-checks.ts', which checks every page.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
