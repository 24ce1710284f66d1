/** The malloc settings the launcher script exports are the ones `npm start` gives an Electron child (electron/launch.ts MALLOC_ENV). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MALLOC_ENV } from '../../../electron/launch';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

describe('malloc settings', () => {
  it('build/run.sh exports the same defaults as MALLOC_ENV, each only when the environment has none', () => {
    const script = readFileSync(path.join(ROOT, 'build', 'run.sh'), 'utf8');
    expect(Object.keys(MALLOC_ENV).sort()).toEqual(['MALLOC_ARENA_MAX', 'MALLOC_MMAP_THRESHOLD_']);
    for (const [name, value] of Object.entries(MALLOC_ENV)) {
      expect(script).toContain(`export ${name}="\${${name}:-${value}}"`);
    }
  });
});
