import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Product code never depends on test code: the rigs live in @shuili/test-support, which tests and
 * benchmarks import, and which may import the server, never the reverse.
 */
const testCodeBans = [
  {
    group: ['@shuili/test-support', '@shuili/test-support/*', '**/test-support/**'],
    message: 'Test rigs are test code: product code must not import @shuili/test-support.',
  },
  {
    group: ['@shuili/bench', '@shuili/bench/*', '**/bench', '**/bench/**'],
    message: 'Product code must not depend on the benchmarks.',
  },
  {
    group: ['@shuili/e2e', '@shuili/e2e/*', '**/e2e', '**/e2e/**', '**/testing/**'],
    message: 'Product code must not depend on test code (e2e or a testing folder).',
  },
];

/** Tests, and test helpers kept beside the tests that use them. */
const testFiles = ['**/*.test.{ts,tsx}', '**/*-test-*.ts'];

/**
 * The console's floors (apps/web/src), bottom to top: lib and i18n; core (session, permissions,
 * route types and route generation, error log, live connection); layout, resource and features
 * (the shell and the screens); app (the router and the route tables, which import every screen).
 * A floor imports only the floors below it.
 */
const webFloors = [
  {
    files: ['apps/web/src/{lib,i18n}/**/*.{ts,tsx}'],
    above: ['core', 'layout', 'resource', 'features', 'app'],
  },
  { files: ['apps/web/src/core/**/*.{ts,tsx}'], above: ['layout', 'resource', 'features', 'app'] },
  { files: ['apps/web/src/{layout,resource,features}/**/*.{ts,tsx}'], above: ['app'] },
];

/** One lint setup for every workspace. */
export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'bench/results/**',
      'test-results/**',
      // The demo cameras' video clip: MPEG-TS segments, not TypeScript.
      'apps/server/assets/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: [
      'apps/server/src/**/*.ts',
      'apps/web/src/**/*.{ts,tsx}',
      'packages/contract/src/**/*.ts',
      'packages/sim/src/**/*.ts',
    ],
    ignores: [...testFiles, 'apps/server/src/security/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: testCodeBans }] },
  },
  // A later entry replaces the rule for its files, so each floor repeats the test-code bans.
  ...webFloors.map(({ files, above }) => ({
    files,
    ignores: testFiles,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...testCodeBans,
            {
              regex: `^(\\.\\./)+(${above.join('|')})(/|$)`,
              message: `A floor of the console imports only the floors below it (eslint.config.js): ${above.join(', ')} are above this file's.`,
            },
          ],
        },
      ],
    },
  })),
);
