import { describe, expect, it } from 'vitest';
import { demoSeed, SandboxState, SimClock } from '../../../electron/sandbox/index';
import { resetState, snapshotState, applySnapshot } from '../../../electron/sandbox/persist';
import { encodeState, fieldKind, isPureData, restoreInto } from '../../../electron/sandbox/state-codec';

class Inner {
  readonly log: Array<{ at: Date; n: number }> = [];
  readonly byId = new Map<number, { at: Date; n: number }>();
  count = 0;
  /** Data holding functions: left live. */
  readonly listeners = new Set<() => void>();
  constructor(readonly owner: object) {}
  add(n: number, at: Date): void {
    const e = { at, n };
    this.log.push(e);
    this.byId.set(n, e);
    this.count++;
  }
}

class Root {
  readonly items: Array<Record<string, unknown>> = [];
  readonly index = new Map<string, Record<string, unknown>>();
  readonly tags = new Set<string>();
  readonly seq = { a: 1 };
  readonly inner: Inner;
  readonly timer = setTimeout(() => undefined, 0);
  random = () => 0.5;
  tokens = new Map<string, number>();
  constructor() {
    this.inner = new Inner(this);
    clearTimeout(this.timer);
  }
}

describe('field kinds', () => {
  it('sorts values into data, functions, instances and opaque built-ins', () => {
    expect(fieldKind(1)).toBe('data');
    expect(fieldKind([new Date()])).toBe('data');
    expect(fieldKind(new Map())).toBe('data');
    expect(fieldKind(Buffer.from('x'))).toBe('data');
    expect(fieldKind(() => 1)).toBe('function');
    expect(fieldKind(new Inner({}))).toBe('instance');
    expect(fieldKind(new AbortController())).toBe('opaque');
    expect(fieldKind(Promise.resolve())).toBe('opaque');
    expect(isPureData({ a: [1, { b: new Date() }] })).toBe(true);
    expect(isPureData({ a: [1, { b: () => 1 }] })).toBe(false);
    expect(isPureData(new Set([new Inner({})]))).toBe(false);
  });
});

describe('encodeState / restoreInto', () => {
  function populated(): Root {
    const r = new Root();
    const shared = { id: 7, when: new Date('2026-09-14T08:00:00Z'), note: undefined, nan: NaN, inf: -Infinity, bytes: Buffer.from('label'), raw: new Uint8Array([1, 2, 3]) };
    r.items.push(shared, { id: 8, $t: 'looks like a tag', $ref: 3, nested: { deep: [new Date(0), null, undefined] } });
    r.index.set('BR123', shared);
    r.tags.add('x').add('y');
    r.seq.a = 42;
    r.inner.add(1, new Date('2026-09-15T00:00:00Z'));
    r.inner.add(2, new Date('2026-09-16T00:00:00Z'));
    r.tokens.set('secret', 1);
    r.inner.listeners.add(() => undefined);
    const cyc: Record<string, unknown> = { name: 'cycle' };
    cyc.self = cyc;
    r.items.push(cyc);
    return r;
  }

  it('round-trips data through JSON text, keeping shared objects shared and cycles', () => {
    const src = populated();
    const { json, kept } = encodeState(src);
    expect(kept).toEqual(['inner.listeners']);
    const dst = new Root();
    const listener = () => undefined;
    dst.inner.listeners.add(listener);
    const ignored = restoreInto(dst, JSON.parse(JSON.stringify(json)));
    expect(ignored).toEqual([]);
    expect(dst.items).toEqual(src.items);
    expect(dst.items[0]).toBe(dst.index.get('BR123'));
    expect(dst.inner.log[1]).toBe(dst.inner.byId.get(2));
    expect((dst.items[2] as Record<string, unknown>).self).toBe(dst.items[2]);
    expect(dst.items[0]!.bytes).toBeInstanceOf(Buffer);
    expect(dst.items[0]!.raw).toBeInstanceOf(Uint8Array);
    expect(Number.isNaN(dst.items[0]!.nan)).toBe(true);
    expect('note' in dst.items[0]!).toBe(true);
    expect([...dst.tags]).toEqual(['x', 'y']);
    expect(dst.seq).toEqual({ a: 42 });
    expect(dst.inner.count).toBe(2);
    // Live parts stay: the listener set, the back-reference, the functions.
    expect([...dst.inner.listeners]).toEqual([listener]);
    expect(dst.inner.owner).toBe(dst);
    // Top-level `tokens` is transient.
    expect(dst.tokens.size).toBe(0);
    // Encoding the restored object gives the same JSON.
    expect(encodeState(dst).json).toEqual(json);
  });

  it('refills collections in place so holders of the old array see the new content', () => {
    const dst = new Root();
    const itemsRef = dst.items;
    const indexRef = dst.index;
    restoreInto(dst, encodeState(populated()).json);
    expect(dst.items).toBe(itemsRef);
    expect(dst.index).toBe(indexRef);
    expect(itemsRef).toHaveLength(3);
  });

  it('skips fields that are gone or changed shape, and reports them', () => {
    const { json } = encodeState(populated());
    const j = json as Record<string, unknown>;
    j.gone = 1;
    j.seq = [1, 2];
    const dst = new Root();
    expect(restoreInto(dst, j as never).sort()).toEqual(['gone', 'seq']);
    expect(dst.seq).toEqual({ a: 1 });
  });

  it('rejects damaged JSON', () => {
    expect(() => restoreInto(new Root(), { items: { $ref: 99 } })).toThrow(/unknown object/);
    expect(() => restoreInto(new Root(), { items: { $t: 'Weird', v: 1 } })).toThrow(/unknown tag/);
  });
});

describe('SandboxState snapshot and reset', () => {
  it('snapshots a fresh state and applies it to another, with the clock offset', () => {
    const base = () => new Date('2026-09-14T08:00:00Z');
    const a = new SandboxState({ ...demoSeed(), randomSeed: 1 }, new SimClock(base));
    a.clock.advance(3_600_000);
    a.accounts[0]!.credit.balance = 12.34;
    a.newTrackingNumber('BR');
    const snap = JSON.parse(JSON.stringify(snapshotState(a))) as ReturnType<typeof snapshotState>;
    expect(snap.format).toBe('shipping-station-sandbox-state');
    const b = new SandboxState(demoSeed(), new SimClock(base));
    expect(applySnapshot(b, snap)).toEqual([]);
    expect(b.accounts[0]!.credit.balance).toBe(12.34);
    expect(b.clock.now().toISOString()).toBe('2026-09-14T09:00:00.000Z');
    expect(encodeState(b).json).toEqual(encodeState(a).json);
    expect(() => applySnapshot(b, { ...snap, version: 99 })).toThrow(/version 99/);
    expect(() => applySnapshot(b, { ...snap, format: 'x' as never })).toThrow(/not a sandbox state file/);
  });

  it('reset replaces data from the seed and keeps clock, tokens and live subscribers', () => {
    const clock = new SimClock(() => new Date('2026-09-14T08:00:00Z'));
    const st = new SandboxState(demoSeed(), clock);
    const seen: string[] = [];
    st.events.on('*', (e) => seen.push(e.kind));
    clock.advance(5000);
    st.tokens.set('t', { accountId: 1017, scope: 'client-api', issuedAt: 0, expiresAt: Number.MAX_SAFE_INTEGER });
    st.accounts[0]!.credit.balance = 1;
    st.accounts.pop();
    resetState(st, { ...demoSeed(), randomSeed: 3 });
    expect(st.accounts).toHaveLength(demoSeed().accounts.length);
    expect(st.accounts[0]!.credit.balance).toBe(500);
    expect(st.tokens.has('t')).toBe(true);
    expect(clock.now().toISOString()).toBe('2026-09-14T08:00:05.000Z');
    const n1 = st.newTrackingNumber('BR');
    resetState(st, { ...demoSeed(), randomSeed: 3 });
    expect(st.newTrackingNumber('BR')).toBe(n1);
    st.events.emit({ kind: 'stock.opened', accountId: 1017, at: clock.now(), payload: {} });
    expect(seen).toEqual(['stock.opened']);
  });
});
