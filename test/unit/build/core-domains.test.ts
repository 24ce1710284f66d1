// The domain order of electron/core (build/core-domains.mjs, checked by build/check-domains.mjs in lint).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORE_DOMAINS, findCycle } from '../../../build/core-domains.mjs';

describe('core domain order', () => {
  it('finds a cycle through several domains, and none in a chain', () => {
    expect(findCycle({ a: ['b'], b: ['c'], c: ['a'] })).toEqual(['a', 'b', 'c', 'a']);
    expect(findCycle({ outbox: ['common'], common: ['outbox'] })).toEqual(['common', 'outbox', 'common']);
    expect(findCycle({ a: ['b', 'c'], b: ['c'], c: [] })).toBeNull();
  });

  it('the table has no cycle and lists only domains it has rows for', () => {
    expect(findCycle(CORE_DOMAINS)).toBeNull();
    const names = Object.keys(CORE_DOMAINS);
    for (const used of Object.values(CORE_DOMAINS)) for (const d of used) expect(names).toContain(d);
    // common, the shared layer, uses nothing but the store and the platform client's types.
    expect([...(CORE_DOMAINS.common ?? [])].sort()).toEqual(['platform', 'store']);
  });

  it('the imports of electron/core follow the table (build/check-domains.mjs)', () => {
    const out = execFileSync(process.execPath, [path.resolve(__dirname, '../../../build/check-domains.mjs')], { encoding: 'utf8' });
    expect(out).toMatch(/^check-domains: \d+ domain folders, \d+ edges between them, no cycle$/m);
  });
});
