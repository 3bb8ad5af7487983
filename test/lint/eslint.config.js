// Not a style linter (prettier formats). The first block: eslint-plugin-regexp's checks for
// regular expressions that can backtrack super-linearly on their input (ReDoS), run over src/
// by `make lint`. A pattern of that shape on user input can hold the event loop for seconds
//. Kept under test/ so the top level stays small; run as
// `npx eslint --config test/lint/eslint.config.js src`.
//
// The second block (typescript-eslint, with the type information of tsconfig.json; it takes
// the run from about 7 to about 20 s of CPU) checks promises and switches: a promise neither
// awaited nor `void`ed (an error in it is an unhandled rejection, and the caller goes on before
// it is done), a promise used as a condition or spread, or an async function given where a
// function's result is ignored (a property, variable or return of a void function type), a
// switch over a union without a `default:` that forgets a member, and type-only imports
// written as `import type` (or inline `type`) so that they are erased from the output.
//
// The third block keeps database calls out of src/api (queries go in finders/, writes in
// services/).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tsParser from '@typescript-eslint/parser';
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export default [
  {
    files: ['src/**/*.ts'],
    languageOptions: { parser: tsParser },
    plugins: { regexp },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
    },
  },
  {
    files: ['src/**/*.ts'],
    languageOptions: { parser: tseslint.parser, parserOptions: { projectService: true, tsconfigRootDir: repoRoot } },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // Not in call arguments: a Knex callback (`.where((w) => w.where(…))`) returns its query
      // builder, a thenable that Knex ignores, and the rule cannot tell it from a promise.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      // A `default:` is a deliberate catch-all; without one, every member must have its case.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  // The API layer only declares and presents: a route reads through finders/ and changes
  // state through services/, never with the database handle itself (`deps.db(...)`,
  // `req.deps.db(...)`, `deps.db.transaction`, `deps.db.raw`). Passing `deps.db` on is fine.
  {
    files: ['src/api/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          "CallExpression[callee.object.name='deps'][callee.property.name='db']",
          "CallExpression[callee.object.property.name='deps'][callee.property.name='db']",
          "MemberExpression[object.object.name='deps'][object.property.name='db']",
          "MemberExpression[object.object.property.name='deps'][object.property.name='db']",
        ].map((selector) => ({ selector, message: 'No database calls in api/: queries belong in finders/, writes in services/.' })),
      ],
    },
  },
];
