import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // Fixture and demo sites are content served to the renderer, not Docport code.
  { ignores: ['dist/', 'node_modules/', 'charts/', '.data/', 'test/fixtures/sites/', 'config/demo-site/', 'docs-offline/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/no-floating-promises': ['error', {
        allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] }],
      }],
      'no-restricted-syntax': ['error', {
        selector: "MemberExpression[object.name='process'][property.name='env']",
        message: 'Read configuration through src/config (parsed once at startup).',
      }],
    },
  },
  {
    // Dev tooling and tests talk to the environment directly.
    files: ['test/**/*.ts', 'src/devenv/**/*.ts', 'src/tools/**/*.ts', 'src/cli/**/*.ts', 'eslint.config.js'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  { files: ['eslint.config.js'], ...tseslint.configs.disableTypeChecked },
);
