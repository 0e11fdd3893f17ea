/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url'
import { defineConfig } from 'vite'

const src = fileURLToPath(new URL('./src', import.meta.url))

// react-router 7 exports only its development build (remix-run/react-router#14102: dev
// warnings and checks included); a production build takes the production files it ships
// beside it. On a phone the development build cost ~200 ms of the home page's first load.
const reactRouterProduction = {
  'react-router/dom': fileURLToPath(new URL('./node_modules/react-router/dist/production/dom-export.mjs', import.meta.url)),
  'react-router': fileURLToPath(new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url)),
}

// React's automatic JSX runtime through esbuild; no plugin needed for a production build.
export default defineConfig(({ command }) => ({
  esbuild: { jsx: 'automatic' },
  resolve: { alias: { '@': src, ...(command === 'build' ? reactRouterProduction : {}) } },
  server: {
    port: 5173,
    // The server renders the public RigPages (/rig/{slug}) and serves their font.
    proxy: { '/_api': 'http://127.0.0.1:8080', '/media': 'http://127.0.0.1:8080', '^/rig/': 'http://127.0.0.1:8080', '/rig-assets': 'http://127.0.0.1:8080' },
  },
  build: { target: 'es2022', sourcemap: false },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test-setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    // Above the slowest wait a test may do on a busy machine (src/test-setup.ts), so the wait,
    // not the test's clock, says what was missing.
    testTimeout: 30_000,
  },
}))
