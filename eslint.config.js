// @ts-check
/**
 * ESLint 9 (flat config): JavaScript's and typescript-eslint's recommended rules without type
 * information (fast: `npm run lint` stays well under the time a hook allows it), React's hook rules
 * and jsx-a11y's accessibility rules for components. Formatting is Prettier's (.prettierrc.json), not
 * ESLint's. `npm run lint` runs both at zero warnings; `npm test` runs it as its lint stage.
 */
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const BROWSER = ['src/**', 'widgets/**', 'studio/**', 'catalogue/language/**'];
const NODE = ['server/**', 'scripts/**', 'tooling/**', 'catalogue/check/**', 'tests/**', 'packages/**', '*.config.{js,ts}', '.dependency-cruiser.cjs'];
const REACT = ['src/**/*.{ts,tsx}', 'widgets/**/*.{ts,tsx}', 'studio/**/*.{ts,tsx}', 'tests/**/*.tsx', 'scripts/bench/**/*.tsx'];

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'build/',
      'data/',
      'coverage/',
      'test-results/',
      'playwright-report/',
      // Generated code and data tables (the IDNA tables are generated from Unicode's data).
      'src/generated/',
      'packages/*/dist/',
      'packages/validators/test/fixtures/',
      'packages/validators/src/formats/idnaTables.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: BROWSER, languageOptions: { globals: globals.browser } },
  { files: NODE, languageOptions: { globals: globals.node } },
  {
    // CommonJS: the dependency-cruiser config, and the validators' CommonJS consumer test.
    files: ['**/*.cjs', '**/*.cts'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Tests feed hostile and half-typed input on purpose.
    files: ['tests/**', 'packages/*/test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: REACT,
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  { files: REACT, ...jsxA11y.flatConfigs.recommended },
  {
    files: REACT,
    // A component that only passes the prop on (ChoiceCards' autoFocus) is not a DOM element.
    rules: { 'jsx-a11y/no-autofocus': ['error', { ignoreNonDOM: true }] },
  },
  {
    // No god functions (DESIGN's house rules): 80 lines of code (blank lines and comments aside) is about
    // what one screen shows, and what a reader holds at once; the longest functions of the last review
    // (a 312-line route plugin, a 246-line component with 10 useState) were where changes went wrong.
    // Tests are lists of cases in describe blocks (a long describe is not a long function); generated code is ignored above.
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    ignores: ['tests/**', 'packages/*/test/**'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  {
    rules: {
      // A leading underscore marks what is deliberately unused (a destructured-away field, an ignored argument).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // Control characters are what the security checks look for (CONTROL_OR_BACKSLASH and the like).
      'no-control-regex': 'off',
      // A variable a closure reads before its one assignment (server/app.ts's logger) stays a let.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
);
