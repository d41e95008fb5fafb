import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { configs as litConfigs } from 'eslint-plugin-lit';
import { configs as wcConfigs } from 'eslint-plugin-wc';
import globals from 'globals';

const NODE_BUILTINS = [
  'node:*',
  'fs',
  'path',
  'http',
  'https',
  'crypto',
  'os',
  'child_process',
  'stream',
  'url',
  'net',
  'zlib',
];

/** What browser code (client/, elements/) may not import. */
const BROWSER_PATTERNS = [
  {
    group: ['**/server/**', '**/sandbox/**', ...NODE_BUILTINS],
    message: 'Browser code never imports server/, sandbox/ or Node built-ins.',
  },
  {
    group: ['zod', 'zod/*'],
    message:
      "Browser code imports no zod: the contract's schemas are for the server and the sandbox.",
  },
  // Types of the contract are free; its values come from the zod-free constants module.
  {
    group: ['**/contract/*', '!**/contract/constants.js'],
    allowTypeImports: true,
    message:
      'Browser code imports only types from the contract, and values from contract/constants.js.',
  },
];

/** What the proxy (server/) may not import. */
const SERVER_PATTERNS = [
  {
    group: ['lit', 'lit/*', '**/elements/**', '**/client/**', '**/sandbox/**'],
    message: 'server/ never imports Lit, elements/, client/ or sandbox/.',
  },
];

export default tseslint.config(
  // examples/ are apps of their own, type-checked and built by their own tools (test/integrations).
  {
    ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'coverage/**', 'examples/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      // `interface BillingMessages extends TextsOf<typeof texts> {}`: how a messages file adds
      // its table's keys to the interface (declaration merging), which a type alias cannot do.
      '@typescript-eslint/no-empty-object-type': [
        'error',
        { allowInterfaces: 'with-single-extends' },
      ],
    },
  },
  {
    files: ['src/elements/**/*.ts', 'src/client/**/*.ts'],
    ...litConfigs['flat/recommended'],
  },
  {
    files: ['src/elements/**/*.ts'],
    ...wcConfigs['flat/recommended'],
  },
  // The layers' import rules of docs/architecture.md (keep the two in step).
  {
    files: ['src/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*', 'lit', 'lit/*', ...NODE_BUILTINS],
              message: 'contract/ imports nothing else of ours, no Lit and no Node built-ins.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/client/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: BROWSER_PATTERNS }] },
  },
  // An element never imports another element: what two of them share lives in elements/shared,
  // and shared code imports no element either. The one way across is at run time: shared/remedy.ts
  // loads the portal with import(), which this rule does not see, so a page pays for the portal
  // only when a customer asks for it.
  {
    files: ['src/elements/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...BROWSER_PATTERNS,
            {
              regex: '^\\.\\./(?!shared/)[\\w-]+/',
              message:
                'An element never imports another element: move what they share to src/elements/shared.',
            },
          ],
        },
      ],
    },
  },
  // The proxy's core runs on every runtime (Node, Bun, Deno, Workers): only its adapters import
  // Node's built-ins; elsewhere their types are free (exchange-node.ts reaches node:http at run
  // time through process.getBuiltinModule, on Node only).
  {
    files: ['src/server/**/*.ts'],
    ignores: ['src/server/adapters/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...SERVER_PATTERNS,
            {
              group: NODE_BUILTINS,
              allowTypeImports: true,
              message:
                'Only server/adapters/ imports Node built-ins: the core runs on every runtime.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/server/adapters/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: SERVER_PATTERNS }] },
  },
  {
    files: ['src/sandbox/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', '**/client/**', '**/elements/**', 'lit', 'lit/*'],
              message: 'sandbox/ only shares contract/.',
            },
          ],
        },
      ],
    },
  },
);
