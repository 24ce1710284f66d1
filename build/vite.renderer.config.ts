/**
 * Vite build of the bench screens: root `renderer/`, output `dist/renderer`.
 * `base: './'` keeps asset URLs relative so the same build is served by the
 * headless host (http://127.0.0.1:<port>/) and by Electron's app protocol.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const root = fileURLToPath(new URL('../renderer', import.meta.url));
const outDir = fileURLToPath(new URL('../dist/renderer', import.meta.url));

/**
 * Writes dist/.build/renderer-packages.json: the npm packages whose code is in
 * the renderer bundle, for the third-party notices (build/notices.mjs).
 */
function listPackages(): Plugin {
  return {
    name: 'station-list-packages',
    generateBundle(_options, bundle) {
      const names = new Set<string>();
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        for (const id of Object.keys(chunk.modules)) {
          const m = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(id.replaceAll('\\', '/'));
          if (m?.[1]) names.add(m[1]);
        }
      }
      const file = fileURLToPath(new URL('../dist/.build/renderer-packages.json', import.meta.url));
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify([...names].sort()));
    },
  };
}

export default defineConfig({
  root,
  base: './',
  plugins: [react(), listPackages()],
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
