// build/check-cycles.mjs (`npm run lint:cycles`) on throwaway folders: a circle closed by a type-only
// import fails it, written `import type` or `import('./x').T` (the one dpdm alone did not see: issue 45).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = path.resolve(import.meta.dirname, '../../../build/check-cycles.mjs');
const dirs: string[] = [];

/** Runs the check in a folder holding `files` (path → text) over `src/**\/*.ts`. */
function check(files: Record<string, string>): { status: number | null; out: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'check-cycles-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  const r = spawnSync(process.execPath, [SCRIPT, 'src/**/*.ts'], { cwd: dir, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('lint:cycles', () => {
  it('fails on a circle closed by `import type`', () => {
    const r = check({ 'src/a.ts': "import type { B } from './b';\nexport interface A { b?: B }\n", 'src/b.ts': "import type { A } from './a';\nexport interface B { a?: A }\n" });
    expect(r.status).toBe(1);
    // Said from its first file by name, whichever file the search met first.
    expect(r.out).toContain('1) src/a.ts -> src/b.ts\n');
  });

  it("fails on a circle closed by an `import('…')` type, through a folder's index and a third file", () => {
    const r = check({
      'src/types.ts': "export interface Options { run?: import('./transports').Runner }\n",
      'src/transports/index.ts': "import type { Transport } from './transport';\nexport type Runner = (t: Transport) => void;\n",
      'src/transports/transport.ts': "import type { Options } from '../types';\nexport interface Transport { options: Options }\n",
    });
    expect(r.status).toBe(1);
    expect(r.out).toContain('1) src/transports/index.ts -> src/transports/transport.ts -> src/types.ts\n');
  });

  it('passes types below the modules that use them', () => {
    const r = check({
      'src/types.ts': "export interface Options { timeoutMs?: number }\nexport type Lib = typeof import('node:fs');\n",
      'src/transport.ts': "import type { Options } from './types';\nexport interface Transport { options: Options }\n",
      'src/index.ts': "import type { Transport } from './transport';\nexport interface OpenOptions { transport?: import('./transport').Transport; t?: Transport }\n",
    });
    expect(r.out).toContain('no circle of imports');
    expect(r.status).toBe(0);
  });
});
