import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import checkFile from 'eslint-plugin-check-file';
import { forbiddenModules, layers } from './tools/layers.js';

/** One no-restricted-imports block per layer, each pattern carrying the reason. */
function layeringBlocks() {
  const names = Object.keys(layers);
  return names.map((layer) => {
    const forbidden = names.filter(
      (other) => other !== layer && !layers[layer].may.includes(other),
    );
    return {
      files: [`src/${layer}/**/*.ts`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            paths: forbiddenModules.flatMap(({ name, message }) => [
              { name, message },
              { name: name.replace(/^node:/, ''), message },
            ]),
            patterns: forbidden.map((other) => ({
              group: [`**/${other}/*`, `**/${other}`],
              message: `${layer} may not import ${other}: ${layers[layer].why}`,
            })),
          },
        ],
      },
    };
  });
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'web/dist/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'check-file': checkFile },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-console': 'error',
      'check-file/filename-naming-convention': [
        'error',
        { '**/*.{ts,js,mjs}': 'KEBAB_CASE' },
        { ignoreMiddleExtensions: true },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  ...layeringBlocks(),
  {
    // The CLI, benchmarks and scripts talk to a human on a terminal.
    files: ['src/cli/**/*.ts', 'bench/**', 'tools/**', 'test/**/*.mjs'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['test/unit/**/*.ts', 'test/integration/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'vi',
          property: 'mock',
          message:
            'Unit and integration test files share their modules (vitest.config.ts, isolate: false): a module mocked here may already be loaded for another file. Inject the dependency, or patch a built-in as test/unit/daemon/access-guard.test.ts does.',
        },
      ],
    },
  },
);
