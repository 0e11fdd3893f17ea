/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url'
import { defineConfig } from 'vite'

// React's automatic JSX runtime through esbuild; no plugin needed for a production build.
export default defineConfig({
  esbuild: { jsx: 'automatic' },
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
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
  },
})
