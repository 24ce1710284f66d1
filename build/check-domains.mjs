// The domain order of electron/core, checked on the imports as written
// (issue 34): reads every .ts file under electron/core, maps each relative
// import (static, `export … from`, dynamic `import()`) to the domain folder it
// lands in, and fails (exit 1) when
//   - the folders' import graph has a cycle (two domains that use each other,
//     directly or through others),
//   - CORE_DOMAINS (build/core-domains.mjs, which lint enforces per import) has a cycle,
//   - a domain folder is missing from CORE_DOMAINS, or a row names no folder,
//   - a domain imports a folder its row does not list.
// Files at the core's root (station.ts, commands.ts, executors.ts, config.ts,
// data-dir.ts) compose the domains and are not one. Run by `npm run lint`
// (lint:domains). Usage: node build/check-domains.mjs [--graph | --mermaid] (--graph also
// prints the folder graph as used, one `domain -> used, …` line each; --mermaid prints the
// table as the mermaid picture ARCHITECTURE.md shows).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORE_DOMAINS, findCycle, mermaidGraph } from './core-domains.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CORE = path.join(ROOT, 'electron', 'core');
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]*)['"]/g;

const folders = readdirSync(CORE).filter((n) => statSync(path.join(CORE, n)).isDirectory()).sort();
const folderNames = new Set(folders);

/** Every .ts file below `dir`, absolute paths. */
function tsFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return tsFiles(p);
    return name.endsWith('.ts') ? [p] : [];
  });
}

/**
 * The domain folder of an absolute path inside electron/core (a file in it, or the folder itself as
 * `'../store'` imports its index.ts), or null (a root file, or outside the core).
 */
function domainOf(file) {
  const rel = path.relative(CORE, file);
  if (rel === '' || rel.startsWith('..')) return null;
  const parts = rel.split(path.sep);
  if (parts.length > 1) return parts[0];
  return folderNames.has(parts[0]) ? parts[0] : null;
}

/** domain -> Map(used domain -> first file:line that uses it) */
const used = new Map(folders.map((f) => [f, new Map()]));
for (const file of tsFiles(CORE)) {
  const from = domainOf(file);
  if (from === null) continue;
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, i) => {
    for (const m of line.matchAll(IMPORT)) {
      const to = domainOf(path.resolve(path.dirname(file), m[1]));
      if (to === null || to === from) continue;
      const edges = used.get(from);
      if (!edges.has(to)) edges.set(to, `${path.relative(ROOT, file)}:${i + 1}`);
    }
  });
}

const problems = [];
for (const f of folders) if (!(f in CORE_DOMAINS)) problems.push(`electron/core/${f}/ is not in CORE_DOMAINS (build/core-domains.mjs): give it its row`);
for (const d of Object.keys(CORE_DOMAINS)) if (!folders.includes(d)) problems.push(`CORE_DOMAINS names "${d}", which is no folder of electron/core`);
const tableCycle = findCycle(CORE_DOMAINS);
if (tableCycle) problems.push(`CORE_DOMAINS has a cycle: ${tableCycle.join(' -> ')}`);
const graph = Object.fromEntries([...used].map(([d, edges]) => [d, [...edges.keys()].sort()]));
const importCycle = findCycle(graph);
if (importCycle) {
  const where = importCycle.slice(0, -1).map((d, i) => `${d} -> ${importCycle[i + 1]} (${used.get(d).get(importCycle[i + 1])})`);
  problems.push(`the imports have a cycle between domain folders: ${where.join('; ')}`);
}
for (const [d, edges] of used) {
  const allowed = CORE_DOMAINS[d] ?? [];
  for (const [to, at] of edges) if (!allowed.includes(to)) problems.push(`${at}: electron/core/${d} uses ${to}, which its row in CORE_DOMAINS does not list`);
}

if (process.argv.includes('--mermaid')) console.log(mermaidGraph(CORE_DOMAINS));
if (process.argv.includes('--graph')) for (const [d, edges] of Object.entries(graph)) console.log(`${d} -> ${edges.join(', ') || '(nothing)'}`);
if (problems.length > 0) {
  for (const p of problems) console.error(`check-domains: ${p}`);
  process.exit(1);
}
const edgeCount = Object.values(graph).reduce((n, e) => n + e.length, 0);
console.log(`check-domains: ${folders.length} domain folders, ${edgeCount} edges between them, no cycle`);
