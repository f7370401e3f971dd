import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** One lint setup for every workspace. */
export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'bench/results/**', 'test-results/**'],
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
    // Product code never depends on test code: the rigs live in @shuili/test-support, which
    // tests and benchmarks import, and which may import the server, never the reverse.
    files: [
      'apps/server/src/**/*.ts',
      'apps/web/src/**/*.{ts,tsx}',
      'packages/contract/src/**/*.ts',
      'packages/sim/src/**/*.ts',
    ],
    ignores: [
      '**/*.test.{ts,tsx}',
      // Test helpers kept beside the tests that use them.
      '**/*-test-*.ts',
      'apps/server/src/security/**',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@shuili/test-support', '@shuili/test-support/*', '**/test-support/**'],
              message:
                'Test rigs are test code: product code must not import @shuili/test-support.',
            },
            {
              group: ['@shuili/bench', '@shuili/bench/*', '**/bench', '**/bench/**'],
              message: 'Product code must not depend on the benchmarks.',
            },
            {
              group: ['@shuili/e2e', '@shuili/e2e/*', '**/e2e', '**/e2e/**', '**/testing/**'],
              message: 'Product code must not depend on test code (e2e or a testing folder).',
            },
          ],
        },
      ],
    },
  },
);
