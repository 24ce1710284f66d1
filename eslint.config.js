// Lint config: typescript-eslint's recommended type-aware rules for all TS,
// react-hooks for the renderer, and the layer rules of ARCHITECTURE.md
// ("Layers"), enforced here so CI fails on a wrong import:
//   shared            imports nothing of ours outside shared (and no node:*, no electron)
//   electron/core     imports shared only (no electron, sandbox, training, shell, host, main)
//   electron/sandbox  imports shared only (no electron, core, training, shell, host, main)
//   renderer          imports shared only (it reaches the core through the contract)
//   electron/main, electron/host: compose through electron/shell; neither imports the other
//   electron/training, electron/shell, electron/launch.ts: compose (may import core and sandbox)
// Import strings are matched as gitignore-style globs on the path as written
// (`../sandbox`, `../../electron/core/store`), so each rule names the folders
// a layer must not reach, wherever the importing file sits.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { CORE_DOMAINS } from './build/core-domains.mjs';

/**
 * `no-restricted-imports` options for one layer: no import of any path
 * through one of `folders` (a folder of ours the layer must not reach), no
 * `electron` module and no package.json (layers below the shells take such
 * values as parameters) unless `allow.electron` / `allow.packageJson`; `extra`
 * adds pattern groups.
 */
function layer(name, folders, extra = [], allow = {}) {
  return {
    paths: allow.electron ? [] : [{ name: 'electron', message: `${name} must not import electron (ARCHITECTURE.md "Layers").` }],
    patterns: [
      ...folders.map((f) => ({
        group: [`**/${f}`, `**/${f}/**`, `**/${f}.ts`],
        message: `${name} must not import ${f === 'electron' ? 'electron/*' : f} (ARCHITECTURE.md "Layers").`,
      })),
      ...(allow.packageJson ? [] : [{ group: ['**/package.json'], message: `${name} must not import package.json; take the value as a parameter (ARCHITECTURE.md "Layers").` }]),
      ...extra,
    ],
  };
}

/** Folders of ours the station core must not reach (it runs in Electron main and the headless host alike). */
const CORE_FORBIDDEN = ['sandbox', 'training', 'shell', 'host', 'main', 'preload', 'launch', 'renderer', 'test'];

export default tseslint.config(
  { ignores: ['dist/**', '.cache/**', 'build/out/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['electron/core/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', layer('electron/core', CORE_FORBIDDEN)] },
  },
  // Inside the core, each domain folder may use only the folders its row of CORE_DOMAINS
  // (build/core-domains.mjs) names; build/check-domains.mjs checks the table has no cycle.
  ...Object.entries(CORE_DOMAINS).map(([domain, allowed]) => ({
    files: [`electron/core/${domain}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        layer(
          `electron/core/${domain}`,
          CORE_FORBIDDEN,
          Object.keys(CORE_DOMAINS)
            .filter((other) => other !== domain && !allowed.includes(other))
            .map((other) => ({
              // `../../x` too: a domain's own sub-folders (printing/jobs, printing/transports, ...) reach the others one level further up.
              group: [`../${other}`, `../${other}/**`, `../../${other}`, `../../${other}/**`],
              message: `electron/core/${domain} must not use electron/core/${other}: the domains it may use are listed in build/core-domains.mjs CORE_DOMAINS (ARCHITECTURE.md "Domains of the core").`,
            })),
        ),
      ],
    },
  })),
  {
    files: ['electron/sandbox/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', layer('electron/sandbox', ['core', 'training', 'shell', 'host', 'main', 'preload', 'launch', 'renderer', 'test'])] },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        layer('shared', ['electron', 'renderer', 'test'], [{ group: ['node:*', 'fs', 'path', 'http', 'crypto'], message: 'shared is pure TypeScript: no node:* (ARCHITECTURE.md "Layers").' }]),
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', layer('renderer', ['electron', 'test'])] },
  },
  {
    files: ['electron/main/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', layer('electron/main', ['host', 'renderer', 'test'], [], { electron: true, packageJson: true })] },
  },
  {
    files: ['electron/host/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', layer('electron/host', ['main', 'preload', 'renderer', 'test'], [], { packageJson: true })] },
  },
  {
    // The supervisor's program (npm run warehouse): composes the core's warehouse domain, never a shell.
    files: ['electron/warehouse/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', layer('electron/warehouse', ['host', 'main', 'preload', 'renderer', 'test', 'sandbox', 'training', 'shell'])] },
  },
  {
    files: ['electron/training/**/*.ts', 'electron/shell/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', layer('electron/training and electron/shell', ['host', 'main', 'preload', 'renderer', 'test'], [], { packageJson: true })] },
  },
  { files: ['**/*.{js,mjs,cjs}'], languageOptions: { globals: { ...globals.node } } },
);
