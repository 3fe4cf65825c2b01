import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

const SERVER_IMPORTS_ONLY_COMMON = { group: ['**/src/**', '**/machines/**', '**/e2e/**'], message: 'server/ imports only common/.' };

export default tseslint.config(
  { ignores: ['dist/**', 'dist-server/**', 'data/**', 'node_modules/**', 'server/db/migrations/**', 'e2e/screenshots/**', '**/*.tmp.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // The folder rule of the README's layout table: common → nothing of ours; machines → common;
  // server → common; src → machines, common. Nothing outside server/ imports server/.
  {
    files: ['common/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['**/src/**', '**/machines/**', '**/server/**', '**/e2e/**', '**/scripts/**'], message: 'common/ imports nothing of ours.' },
      ] }],
    },
  },
  {
    files: ['machines/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-globals': ['error', 'window', 'document', 'fetch', 'localStorage', 'sessionStorage', 'location', 'navigator'],
      'no-restricted-imports': ['error', { patterns: [
        { group: ['react', 'react-dom', '@xstate/react'], message: 'machines/ are framework-free.' },
        { group: ['**/src/**', '**/server/**', '**/e2e/**'], message: 'machines/ import only common/.' },
      ] }],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [SERVER_IMPORTS_ONLY_COMMON] }],
    },
  },
  // domain/ holds rules; SQL and the table definitions sit behind the repositories in server/db/.
  // A later block replaces the rule's options, so the server/ pattern is repeated here.
  {
    files: ['server/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        SERVER_IMPORTS_ONLY_COMMON,
        { group: ['drizzle-orm', 'drizzle-orm/**', '**/db/schema'], message: 'server/domain/ holds rules: put the query in a repository in server/db/ and pass it in.' },
      ] }],
    },
  },
  // Issue 39: server/domain/ declares the ports it needs (server/domain/ports.ts, rows.ts,
  // reports/reads.ts); the repositories of server/db/ implement them and reach the rules only through
  // the composition root (server/composition.ts, server/db/stores.ts). No file is exempt
  // (scripts/lint-rules.test.ts pins it).
  {
    files: ['server/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        SERVER_IMPORTS_ONLY_COMMON,
        { group: ['drizzle-orm', 'drizzle-orm/**', '**/db/schema'], message: 'server/domain/ holds rules: put the query in a repository in server/db/ and pass it in.' },
        { regex: '(^|/)db(/(?!schema$).*)?$', message: 'server/domain/ never imports server/db/: declare the port in server/domain/ports.ts (rows in rows.ts) and let server/composition.ts hand the repository in.' },
      ] }],
    },
  },
  // Issue 26: repositories are below the rules. server/domain/ is handed the repositories
  // by the composition root; server/db/ never reaches up into server/domain/.
  {
    files: ['server/db/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        SERVER_IMPORTS_ONLY_COMMON,
        { group: ['**/domain', '**/domain/**'], message: 'server/db/ never imports server/domain/: repositories sit below the rules.' },
      ] }],
    },
  },
  // Issue 26: routes and resolvers reach repositories only through the composition root
  // (server/composition.ts, `app.services`); their tests may read tables directly.
  {
    files: ['server/http/**/*.ts', 'server/graphql/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        SERVER_IMPORTS_ONLY_COMMON,
        { group: ['**/db', '**/db/**'], message: 'server/http/ and server/graphql/ never import server/db/: read the repository or service from app.services (server/composition.ts).' },
      ] }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['**/server/**', '**/e2e/**', '**/scripts/**'], message: 'src/ imports only machines/ and common/.' },
      ] }],
    },
  },
  {
    // Views render page machines and send them events (src/page-actors.tsx); the I/O is each area's
    // wiring file in src/adapters/ (issue 26). Tests of views too: they give the pages fake I/O.
    files: ['src/views/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['**/server/**', '**/e2e/**', '**/scripts/**'], message: 'src/ imports only machines/ and common/.' },
        {
          group: ['**/adapters', '**/adapters/**', '**/api', '**/api/**'],
          message: "src/views/ never imports src/adapters/ or src/api/: start the page's machine with usePageActor (src/page-actors.tsx); its I/O is the area's wiring file.",
        },
      ] }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { ...globals.node } },
  },
);
