import { readdirSync } from 'node:fs'
import js from '@eslint/js'
import globals from 'globals'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

/**
 * One-way imports (STYLE.md, Frontend; bulletproof-react's zones): shared code (`@/api`,
 * `@/components`, `@/lib`) imports only shared code; a feature imports shared code and its
 * own files, never another feature, a route or the app; pages in `src/routes` and the app
 * shell in `src/app` (the layout, the router, the providers) compose features. One block
 * per feature and folder depth, so that relative imports climbing out of the feature are
 * caught too.
 */
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const featureBoundaries = features.flatMap((feature) =>
  [0, 1, 2, 3, 4].map((depth) => ({
    files: [`src/features/${feature}/${'*/'.repeat(depth)}*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^@/features/(?!${escape(feature)}(/|$))`,
              message: `Features must not import each other: move what is shared to src/lib, src/components or src/app, or let the route in src/routes compose both features.`,
            },
            {
              regex: '^@/(routes|app)(/|$)',
              message: 'Features must not import routes or the app shell; they compose features. Shared state (the session: @/lib/auth) lives in src/lib.',
            },
            {
              regex: `^(\\.\\./){${depth + 1},}`,
              message: `This relative import leaves the "${feature}" feature: import shared code through "@/…", and never another feature.`,
            },
          ],
        },
      ],
    },
  })),
)

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'src/api/schema.d.ts', '.api-check.d.ts'] },
  {
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    files: ['**/*.{ts,tsx}'],
    languageOptions: { ecmaVersion: 2022, globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  ...featureBoundaries,
  {
    // Helpers and the session everyone shares (auth.tsx): no features, pages or app shell.
    files: ['src/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^@/(features|routes|app)(/|$)', message: 'src/lib holds helpers and shared state: it must not import features, routes or the app shell.' }] },
      ],
    },
  },
  {
    // Shared UI: what any screen may use, so it may use no screen.
    files: ['src/components/**/*.{ts,tsx}', 'src/api/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^@/(features|routes|app)(/|$)', message: 'Shared code must not import features, routes or the app shell: move the composing part to src/app.' }] },
      ],
    },
  },
  {
    files: ['e2e/**/*.mjs', 'scripts/**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: { ecmaVersion: 2022, globals: globals.node },
  },
)
