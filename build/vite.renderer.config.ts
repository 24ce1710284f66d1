/**
 * Vite build of the bench screens: root `renderer/`, output `dist/renderer`.
 * `base: './'` keeps asset URLs relative so the same build is served by the
 * headless host (http://127.0.0.1:<port>/) and by Electron's app protocol.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const root = fileURLToPath(new URL('../renderer', import.meta.url));
const outDir = fileURLToPath(new URL('../dist/renderer', import.meta.url));

export default defineConfig({
  root,
  base: './',
  plugins: [react()],
  build: {
    outDir,
    emptyOutDir: true,
    target: 'chrome120',
    sourcemap: true,
    // One small app: no need to warn about chunk sizes (zod + react).
    chunkSizeWarningLimit: 1500,
  },
  server: { host: '127.0.0.1', strictPort: false },
});
