// Not a style linter: only eslint-plugin-regexp's checks for regular expressions that can
// backtrack super-linearly on their input (ReDoS), run over src/ by `make test`. A pattern
// of that shape on user input can hold the event loop for seconds. Kept under
// test/ so the top level stays as ARCHITECTURE.md fixes it; run as
// `npx eslint --config test/lint/eslint.config.js src`.
import tsParser from '@typescript-eslint/parser';
import regexp from 'eslint-plugin-regexp';

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
