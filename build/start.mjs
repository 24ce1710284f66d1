// `npm start`: runs the prebuilt launcher (dist/host/launch.mjs, see
// build/bundle.mjs), rebuilding it and the renderer first only when their
// sources changed. Plain JavaScript, so nothing is compiled at launch;
// Node's compile cache (node_modules/.cache/station-compile) keeps V8's
// code cache of the bundle between launches.
// Usage: node build/start.mjs [station options]
import module from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
module.enableCompileCache?.(path.join(root, 'node_modules', '.cache', 'station-compile'));

const { ensureFresh } = await import('./bundle.mjs');
try {
  await ensureFresh(['launcher', 'renderer']);
} catch (e) {
  console.error(`Shipping Station: build failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
const { main } = await import(pathToFileURL(path.join(root, 'dist', 'host', 'launch.mjs')).href);
await main(process.argv.slice(2));
