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
];
