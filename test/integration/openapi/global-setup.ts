/**
 * Global setup of the integration project: a folder for the per-file tallies
 * of setup.ts, and at the end of the run one line with the number of sandbox
 * answers checked against the served OpenAPI document (and how many
 * operations they covered), plus any mismatches again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

interface Tally {
  file: string;
  validated: number;
  byOperation: Record<string, number>;
  problems: string[];
}

export default function setup(project: TestProject): () => void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-tally-'));
  project.provide('openapiTallyDir', dir);
  return () => {
    const tallies: Tally[] = fs.readdirSync(dir).map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Tally);
    fs.rmSync(dir, { recursive: true, force: true });
    const total = tallies.reduce((s, t) => s + t.validated, 0);
    const ops = new Set(
      tallies
        .flatMap((t) => Object.keys(t.byOperation))
        .filter((o) => !o.startsWith('('))
        .map((o) => o.replace(/ \(injected .*\)$/, '')),
    );
    const problems = tallies.flatMap((t) => t.problems);
    process.stdout.write(
      `\nOpenAPI response validation: ${total} sandbox answers checked against the served document (${ops.size} operations, ${tallies.length} test files), ${problems.length} mismatches\n`,
    );
    for (const p of problems) process.stdout.write(`  mismatch: ${p}\n`);
  };
}
