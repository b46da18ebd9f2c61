// Lint rules for the whole repository (ESLint flat config). Formatting is Prettier's job (`npm run format`);
// these rules catch mistakes: TypeScript's recommended set, React hooks rules and Next.js' own rules.
import nextPlugin from '@next/eslint-plugin-next';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import globals from 'globals';

/**
 * Modules loaded only inside worker threads by engine/cpu/worker.mjs (through tsx, from the source tree, never
 * bundled): they may find their packages' WebAssembly and data files through the module system.
 */
const WORKER_THREAD_ONLY = ['engine/code/sandbox.ts', 'engine/media/espeak.ts'];
const BUNDLED_PATHS =
  'Next bundles this file: the module system cannot find files at run time here (see eslint.config.mjs).';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      '.next/',
      'data/',
      'engine/store/prisma/generated/',
      'test-results/',
      'test-logs/',
      'playwright-report/',
      'bench/results/',
      '.scratch/',
      'next-env.d.ts',
    ],
  },
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      'no-eval': 'error',
      'no-new-func': 'error',
      'no-implied-eval': 'error',
      // Prettier wraps code at 120; this catches what it cannot wrap (long comments, strings, test titles).
      'max-len': ['error', { code: 120, ignoreUrls: true, ignoreRegExpLiterals: true }],
    },
  },
  {
    // Tests and benchmarks read untyped JSON answers all the time; production code may not use `any`.
    files: ['test/**', 'bench/**', 'e2e/**', 'acceptance/**', '**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Code that Next bundles must not find files through the module system at run time: the bundle turns
    // `createRequire().resolve()` / `require.resolve()` into module ids and rewrites `__dirname` (it broke every
    // knowledge base on the built app). Ship data as an import, keep the package external (next.config.mjs), or find
    // PaiFlow's own files from the entry point (engine/config/app-root.ts). A line that must do it says why.
    files: ['app/**/*.{ts,tsx}', 'lib/**/*.ts', 'engine/**/*.ts', 'components/**/*.{ts,tsx}', 'i18n/**/*.ts'],
    ignores: ['**/*.test.ts', 'engine/store/prisma/generated/**', ...WORKER_THREAD_ONLY],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          "CallExpression[callee.name='createRequire']",
          "CallExpression[callee.property.name='resolve'][callee.object.name=/^(require|load|req)$/]",
          "Identifier[name='__dirname']",
          "Identifier[name='__filename']",
          "MemberExpression[object.type='MetaProperty'][property.name=/^(dirname|filename)$/]",
          "NewExpression[callee.name='URL'] > MemberExpression[object.type='MetaProperty'][property.name='url']",
        ].map((selector) => ({ selector, message: BUNDLED_PATHS })),
      ],
      // The worker-thread-only modules stay out of the bundle: bundled code may import their types, nothing else.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: WORKER_THREAD_ONLY.map((f) => `**/${f.split('/').pop().replace(/\.ts$/, '')}`),
              allowTypeImports: true,
              message: 'loaded only in a worker thread (engine/cpu/worker.mjs); import its types only',
            },
          ],
        },
      ],
    },
  },
  {
    // The acceptance suite is black-box: it knows the app only over HTTP, as an outside client does.
    files: ['acceptance/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(@/|(\\.\\./)+(app|lib|engine|components|i18n)(/|$))',
              message: 'acceptance/ is black-box: talk to the server over HTTP, never import the app.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['app/**/*.{ts,tsx}', 'components/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, '@next/next': nextPlugin },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs['core-web-vitals'].rules,
    },
  },
);
