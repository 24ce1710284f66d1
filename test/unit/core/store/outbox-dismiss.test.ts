/**
 * Outbox repository: `dismiss` (needs attention -> done without sending,
 * keeping the refusal) and the HTTP `status` kept on a row's last error.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { tempStore } from './helpers';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

function setup() {
  const t = tempStore();
  cleanups.push(t.cleanup);
  return t;
}

describe('outbox repository: dismiss', () => {
  it('closes a needs-attention row as done with the given result, keeping the last error and its HTTP status', () => {
    const { store, clock } = setup();
    const row = store.outbox.enqueue({ kind: 'shipment.create', payload: { reference: '#1001' }, localRef: 'shipment:1' });
    store.outbox.claimNext();
    const refused = store.outbox.fail(row.id, { code: 'validation_failed', message: 'Province must be 2 letters', details: { 'recipient.address.province': ['2 letters'] }, status: 422 });
    expect(refused.state).toBe('needs_attention');
    expect(refused.lastError).toEqual({ code: 'validation_failed', message: 'Province must be 2 letters', details: { 'recipient.address.province': ['2 letters'] }, status: 422 });
    expect(store.outbox.countPending()).toBe(1);

    clock.advance(5_000);
    const done = store.outbox.dismiss(row.id, { dismissed: { note: 'Shipped by hand' } });
    expect(done.state).toBe('done');
    expect(done.result).toEqual({ dismissed: { note: 'Shipped by hand' } });
    expect(done.lastError?.status).toBe(422);
    expect(done.updatedAt).toBe('2026-10-01T08:00:05.000Z');
    expect(done.attempts).toBe(1);
    expect(store.outbox.countPending()).toBe(0);
    expect(store.outbox.claimNext()).toBeUndefined();
    expect(store.outbox.list({ states: ['done'] }).map((r) => r.id)).toEqual([row.id]);
  });

  it('refuses a row that is not waiting for the packer, and an unknown row', () => {
    const { store } = setup();
    const queued = store.outbox.enqueue({ kind: 'pickup.create', payload: {} });
    expect(() => store.outbox.dismiss(queued.id, {})).toThrow(expect.objectContaining({ code: 'invalid_state' }));
    store.outbox.claimNext();
    expect(() => store.outbox.dismiss(queued.id, {})).toThrow(expect.objectContaining({ code: 'invalid_state' })); // sending
    store.outbox.complete(queued.id, { id: 1 });
    expect(() => store.outbox.dismiss(queued.id, {})).toThrow(expect.objectContaining({ code: 'invalid_state' })); // done
    expect(store.outbox.get(queued.id)?.result).toEqual({ id: 1 });
    expect(() => store.outbox.dismiss(999, {})).toThrow(expect.objectContaining({ code: 'not_found' }));
  });

  it('leaves other rows alone (no claim, no attempt counted)', () => {
    const { store } = setup();
    const a = store.outbox.enqueue({ kind: 'shipment.create', payload: { n: 'a' } });
    store.outbox.claimNext();
    store.outbox.fail(a.id, { code: 'insufficient_credit', message: 'Top up', status: 402 });
    const b = store.outbox.enqueue({ kind: 'shipment.create', payload: { n: 'b' } });
    store.outbox.dismiss(a.id, { supersededBy: b.id });
    expect(store.outbox.get(b.id)).toMatchObject({ state: 'queued', attempts: 0 });
  });

  it('stores no status for a failure without an answer', () => {
    const { store } = setup();
    const a = store.outbox.enqueue({ kind: 'manifest.create', payload: {} });
    store.outbox.claimNext();
    expect(store.outbox.fail(a.id, { code: 'timeout', message: 'no answer' }, { retryAt: new Date() }).lastError).toEqual({ code: 'timeout', message: 'no answer' });
  });
});
