// Lint rules for the whole repository (ESLint flat config). Formatting is Prettier's job (`npm run format`);
// these rules catch mistakes: TypeScript's recommended set, React hooks rules and Next.js' own rules.
import nextPlugin from '@next/eslint-plugin-next';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      '.next/',
      'data/',
      'engine/store/prisma/generated/',
      'test-results/',
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
