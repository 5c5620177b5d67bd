import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import layers from './lint/layers.mjs';

export default defineConfig(
  { ignores: ['dist/', 'node_modules/', '.services/', '.data/', 'coverage/', 'results/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    // Type information for the promise rules: the project service reads tsconfig.json.
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A promise nobody awaits loses its rejection (an unhandled rejection ends the process), and
      // an async callback where a void one is expected runs unawaited: mark fire-and-forget with
      // `void` where its errors are handled inside.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // Leading underscore marks a deliberately unused parameter (e.g. Koa's `next`).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // `any` only as a type argument or default, where heterogeneous collections need it
      // (`StoredRecord<any>[]`, `Resource<D, W = any>`); elsewhere use a precise type or `unknown`.
      '@typescript-eslint/no-explicit-any': 'off',
      'no-restricted-syntax': [
        'error',
        {
          selector: 'TSAnyKeyword:not(TSTypeParameterInstantiation > TSAnyKeyword, TSTypeParameter > TSAnyKeyword)',
          message: 'Use a precise type or `unknown`; `any` is allowed only as a type argument.',
        },
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'off',
    },
  },
  {
    files: ['src/**/*.ts'],
    plugins: { calendar: layers },
    rules: { 'calendar/layers': 'error' },
  },
  {
    // Unit tests run with no server (test/unit/.mocharc.json starts no test world).
    files: ['test/unit/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '/support/(harness|setup|api|access|lists|records|scripts|terms)$|/reliability/support/',
              allowTypeImports: true,
              message: 'Unit tests run with no server: a test that needs one belongs in test/http or test/reliability.',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests read loosely typed JSON bodies and assert on them.
    files: ['test/**/*.ts'],
    rules: {
      'no-restricted-syntax': 'off',
      '@typescript-eslint/no-unused-expressions': 'off',
    },
  },
);
