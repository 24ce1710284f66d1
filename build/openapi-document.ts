/**
 * Writes the OpenAPI document the sandbox serves (`GET {base_url}/openapi.json`)
 * to a file, for Spectral (`npm run lint:openapi`) and other offline tools.
 * The document is fetched from a sandbox app through fastify's `inject`
 * (no port is opened; the sandbox answers only to a loopback `Host`); `servers` names
 * `http://localhost/api/2026-09`.
 *
 * Usage: node --import tsx build/openapi-document.ts <out.json>
 * Exit 1 when the document cannot be built.
 */
import fs from 'node:fs';
import path from 'node:path';
import { API_PREFIX, buildSandboxApp, demoSeed, SandboxState, SimClock } from '../electron/sandbox/index';

async function main(): Promise<void> {
  const out = process.argv[2];
  if (!out) throw new Error('usage: openapi-document.ts <out.json>');
  const app = buildSandboxApp(new SandboxState(demoSeed(), new SimClock()));
  try {
    await app.ready();
    const res = await app.inject({ method: 'GET', url: `${API_PREFIX}/openapi.json`, headers: { host: 'localhost', accept: 'application/json' } });
    if (res.statusCode !== 200) throw new Error(`GET ${API_PREFIX}/openapi.json answered ${res.statusCode}: ${res.body}`);
    fs.mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
    fs.writeFileSync(out, JSON.stringify(JSON.parse(res.body), null, 2) + '\n');
  } finally {
    await app.close();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`openapi-document: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
