// ARCHITECTURE.md stays true to the code: its picture of the domain order is the one the table
// draws, and every file it names exists (a path from the repository's root, or inside electron/core).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORE_DOMAINS, mermaidGraph } from '../../../build/core-domains.mjs';

const ROOT = path.resolve(__dirname, '../../..');
const doc = readFileSync(path.join(ROOT, 'ARCHITECTURE.md'), 'utf8');

describe('ARCHITECTURE.md', () => {
  it('draws the domain order of build/core-domains.mjs', () => {
    const block = /```mermaid\n([\s\S]*?)\n```/.exec(doc)?.[1];
    expect(block).toBe(mermaidGraph(CORE_DOMAINS));
  });

  it('names only files that exist', () => {
    const named = [...doc.matchAll(/`([\w./-]+\.(?:tsx?|mjs|md|json|yml))`/g)].map((m) => m[1]!).filter((p) => p.includes('/') && !p.startsWith('../') && !p.includes('*'));
    expect(named.length).toBeGreaterThan(100);
    // A path from the root, or (as the text around it says) inside the core, its printing domain or the renderer.
    const bases = ['', 'electron/core', 'electron/core/printing', 'renderer/src'];
    const missing = named.filter((p) => !bases.some((b) => existsSync(path.join(ROOT, b, p))));
    expect(missing).toEqual([]);
  });

  it('names in each row of the domain table only files of that domain', () => {
    const section = doc.slice(doc.indexOf('## Domains of the core'), doc.indexOf("**A newcomer's path**"));
    const rows = section.split('\n').filter((l) => /^\| `[a-z]+\/`/.test(l));
    expect(rows.length).toBe(Object.keys(CORE_DOMAINS).length - 2); // pickups, manifests and stocks share a row
    const missing: string[] = [];
    for (const row of rows) {
      const folders = [...row.split('|')[1]!.matchAll(/`([a-z]+)\/`/g)].map((m) => path.join(ROOT, 'electron/core', m[1]!));
      for (const [, file] of row.matchAll(/`([\w.-]+\.ts)`/g)) {
        const found = folders.some((f) => existsSync(path.join(f, file!)) || ['jobs', 'transports', 'zpl', 'pdf', 'migrations'].some((room) => existsSync(path.join(f, room, file!))));
        if (!found && !file!.includes('*')) missing.push(`${row.split('|')[1]!.trim()} ${file}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
