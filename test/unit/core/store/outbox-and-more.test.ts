import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineSetting, openStore, type Store } from '../../../../electron/core/store';
import { tempStore, type testClock } from './helpers';

let store: Store;
let file: string;
let clock: ReturnType<typeof testClock>;
let cleanup: () => void;
beforeEach(() => ({ store, file, clock, cleanup } = tempStore()));
afterEach(() => cleanup());

const pickupBody = { serviceType: 'BRT-EXP', pickupDate: '2026-10-02', packages: [{ weight: { value: 2 } }] };

describe('outbox repository', () => {
  it('queued -> sending -> done, with the result kept', () => {
    const row = store.outbox.enqueue({ kind: 'pickup.create', payload: pickupBody, localRef: 'pickup:1' });
    expect(row).toMatchObject({ state: 'queued', attempts: 0, payload: pickupBody, localRef: 'pickup:1', result: null, lastError: null });
    expect(store.outbox.countPending()).toBe(1);
    const claimed = store.outbox.claimNext();
    expect(claimed).toMatchObject({ id: row.id, state: 'sending', attempts: 1 });
    expect(store.outbox.claimNext()).toBeUndefined();
    const done = store.outbox.complete(row.id, { id: 9, pickupId: 'BRT-PU-1', cost: { total: 0, currency: 'EUR' } });
    expect(done).toMatchObject({ state: 'done', result: { pickupId: 'BRT-PU-1' } });
    expect(store.outbox.countPending()).toBe(0);
    expect(() => store.outbox.complete(row.id, {})).toThrow(expect.objectContaining({ code: 'invalid_state' }));
    expect(() => store.outbox.complete(999, {})).toThrow(expect.objectContaining({ code: 'not_found' }));
  });

  it('a transient failure requeues with a due time; a permanent one needs attention until retried', () => {
    const a = store.outbox.enqueue({ kind: 'shipment.create', payload: { reference: 'ST-1' } });
    store.outbox.claimNext();
    const retryAt = new Date(clock.now().getTime() + 30_000);
    const requeued = store.outbox.fail(a.id, { code: 'offline', message: 'no network' }, { retryAt });
    expect(requeued).toMatchObject({ state: 'queued', attempts: 1, nextAttemptAt: retryAt.toISOString(), lastError: { code: 'offline' } });
    expect(store.outbox.nextDueAt()).toBe(retryAt.toISOString());
    expect(store.outbox.claimNext()).toBeUndefined(); // not due yet
    clock.advance(30_000);
    expect(store.outbox.claimNext()?.attempts).toBe(2);

    const attention = store.outbox.fail(a.id, {
      code: 'validation_failed',
      message: 'invalid',
      details: { 'recipient.address.postalCode': ['required'] },
    });
    expect(attention).toMatchObject({
      state: 'needs_attention',
      nextAttemptAt: null,
      lastError: { code: 'validation_failed', details: { 'recipient.address.postalCode': ['required'] } },
    });
    expect(store.outbox.countPending()).toBe(1);
    expect(store.outbox.claimNext()).toBeUndefined();
    expect(store.outbox.retry(a.id).state).toBe('queued');
    expect(store.outbox.nextDueAt()).toBeNull();
    expect(() => store.outbox.retry(a.id)).toThrow(expect.objectContaining({ code: 'invalid_state' }));
  });

  it('claims oldest first, optionally by kind; rows left sending are listed for reconciliation', () => {
    const s = store.outbox.enqueue({ kind: 'shipment.create', payload: 1 });
    const m = store.outbox.enqueue({ kind: 'manifest.create', payload: 2 });
    expect(store.outbox.claimNext({ kinds: ['manifest.create'] })?.id).toBe(m.id);
    expect(store.outbox.claimNext({ kinds: [] })).toBeUndefined();
    expect(store.outbox.claimNext()?.id).toBe(s.id);

    // Simulate a crash: reopen the file; both rows are still "sending", outcome unknown.
    store.close();
    store = openStore(file, { now: clock.now });
    expect(store.outbox.listSending().map((r) => r.id)).toEqual([s.id, m.id]);
    expect(store.outbox.requeueSending(s.id).state).toBe('queued');
    expect(store.outbox.list({ states: ['queued'] }).map((r) => r.id)).toEqual([s.id]);
    expect(store.outbox.list({ kind: 'manifest.create' }).map((r) => r.id)).toEqual([m.id]);
  });

  it('refuses an unknown kind and a payload with no JSON form', () => {
    expect(() => store.outbox.enqueue({ kind: 'coffee.make' as never, payload: {} })).toThrow(
      expect.objectContaining({ code: 'invalid_input', details: { kind: ['unknown kind'] } }),
    );
    expect(() => store.outbox.enqueue({ kind: 'pickup.create', payload: undefined })).toThrow(
      expect.objectContaining({ code: 'invalid_input' }),
    );
    expect(store.outbox.countPending()).toBe(0);
  });
});

describe('store.tx: local record and outbox row are written together', () => {
  it('commits both', () => {
    const { pickup, row } = store.tx(() => {
      const pickup = store.pickups.createRequested({ contractCode: 'BRT-EXP', pickupDate: '2026-10-02', request: pickupBody });
      const row = store.outbox.enqueue({ kind: 'pickup.create', payload: pickupBody, localRef: `pickup:${pickup.id}` });
      return { pickup, row };
    });
    expect(store.pickups.get(pickup.id)?.state).toBe('requested');
    expect(store.outbox.listByLocalRef(`pickup:${pickup.id}`).map((r) => r.id)).toEqual([row.id]);
  });

  it('rolls both back when anything inside throws, including the outbox write itself', () => {
    expect(() =>
      store.tx(() => {
        store.pickups.createRequested({ contractCode: 'BRT-EXP', pickupDate: '2026-10-02', request: pickupBody });
        store.outbox.enqueue({ kind: 'pickup.create', payload: pickupBody });
        throw new Error('crash before commit');
      }),
    ).toThrow('crash before commit');
    expect(() =>
      store.tx(() => {
        store.shipments.createPending({ reference: 'ST-9' });
        store.outbox.enqueue({ kind: 'shipment.create', payload: () => 'no json form' });
      }),
    ).toThrow(expect.objectContaining({ code: 'invalid_input' }));
    expect(store.pickups.list()).toEqual([]);
    expect(store.shipments.getByReference('ST-9')).toBeUndefined();
    expect(store.outbox.countPending()).toBe(0);
    // And from another connection: nothing was ever committed.
    const other = new Database(file, { readonly: true });
    expect(other.prepare('SELECT count(*) FROM outbox').pluck().get()).toBe(0);
    expect(other.prepare('SELECT count(*) FROM pickups').pluck().get()).toBe(0);
    other.close();
  });

  it('nests as a savepoint and refuses an async function', () => {
    store.tx(() => {
      store.outbox.enqueue({ kind: 'manifest.create', payload: { a: 1 } });
      expect(() =>
        store.tx(() => {
          store.outbox.enqueue({ kind: 'manifest.create', payload: { a: 2 } });
          throw new Error('inner');
        }),
      ).toThrow('inner');
    });
    expect(store.outbox.list().map((r) => r.payload)).toEqual([{ a: 1 }]);
    expect(() => store.tx(async () => store.outbox.enqueue({ kind: 'manifest.create', payload: 3 }))).toThrow(/promise/i);
    expect(store.outbox.list()).toHaveLength(1);
  });
});

describe('settings repository', () => {
  const Printer = defineSetting('printer.label.uri', z.string().min(1), 'file:///tmp/labels');
  const Dpi = defineSetting('printer.label.dpi', z.union([z.literal(203), z.literal(300)]), 203);

  it('returns the fallback until set, validates on set, survives reopen', () => {
    expect(store.settings.get(Printer)).toBe('file:///tmp/labels');
    store.settings.set(Printer, 'socket://10.0.0.5:9100');
    expect(store.settings.get(Printer)).toBe('socket://10.0.0.5:9100');
    expect(() => store.settings.set(Dpi, 600 as 203)).toThrow(
      expect.objectContaining({ code: 'invalid_input', details: { 'printer.label.dpi': [expect.any(String)] } }),
    );
    store.settings.set(Dpi, 300);
    store.close();
    store = openStore(file);
    expect(store.settings.get(Dpi)).toBe(300);
    expect(store.settings.all()).toEqual({ 'printer.label.dpi': 300, 'printer.label.uri': 'socket://10.0.0.5:9100' });
    store.settings.reset(Dpi);
    expect(store.settings.get(Dpi)).toBe(203);
  });

  it('falls back when a stored value no longer passes the schema, and shows the raw value', () => {
    const Old = defineSetting('printer.label.dpi', z.string(), 'x');
    store.settings.set(Old, 'three hundred');
    expect(store.settings.get(Dpi)).toBe(203);
    expect(store.settings.getRaw('printer.label.dpi')).toBe('three hundred');
  });

  it('rejects malformed keys', () => {
    expect(() => defineSetting('Bad Key', z.string(), '')).toThrow(/Bad setting key/);
  });
});

describe('pickups and manifests repositories', () => {
  it('pickup: requested -> booked, failed cannot override booked, list by date', () => {
    const p = store.pickups.createRequested({ contractCode: 'BRT-EXP', carrierCode: 'BRT', pickupDate: '2026-10-02', pickupTime: 'AM', request: pickupBody });
    expect(p).toMatchObject({ state: 'requested', platformId: null, request: pickupBody });
    const booked = store.pickups.markBooked(p.id, { platformId: 31, pickupId: 'BRT-123', costTotal: 0, currency: 'EUR', platform: { id: 31 } });
    expect(booked).toMatchObject({ state: 'booked', pickupId: 'BRT-123', costTotal: 0, platform: { id: 31 } });
    expect(store.pickups.getByPlatformId(31)?.id).toBe(p.id);
    expect(() => store.pickups.markFailed(p.id, 'x')).toThrow(expect.objectContaining({ code: 'invalid_state' }));
    const q = store.pickups.createRequested({ contractCode: 'GLS', pickupDate: '2026-10-05', request: {} });
    expect(store.pickups.markFailed(q.id, 'carrier_error').state).toBe('failed');
    expect(store.pickups.list().map((x) => x.id)).toEqual([q.id, p.id]);
    expect(store.pickups.list({ from: '2026-10-03' }).map((x) => x.id)).toEqual([q.id]);
    expect(store.pickups.list({ state: 'booked' }).map((x) => x.id)).toEqual([p.id]);
  });

  it('manifest: stores the PDF bytes from base64, upserts by platform id, keeps the PDF when absent', () => {
    const pdf = Buffer.from('%PDF-1.7\n% manifest\n%%EOF\n');
    const m = store.manifests.save({
      platformId: 501,
      carrierCode: 'BRT',
      carrierName: 'BRT',
      contractCode: 'BRT-EXP',
      totalShipments: 3,
      totalCost: 20.7,
      createdAt: '2026-10-01T17:30:00+02:00',
      pdf: pdf.toString('base64'),
    });
    expect(m).toMatchObject({ platformId: 501, hasPdf: true, totalShipments: 3, contractCode: 'BRT-EXP' });
    expect(Buffer.from(store.manifests.getPdf(m.id)!).equals(pdf)).toBe(true);
    const again = store.manifests.save({ platformId: 501, carrierCode: 'BRT', totalShipments: 3, totalCost: 20.7, createdAt: m.createdAt });
    expect(again.id).toBe(m.id);
    expect(again.hasPdf).toBe(true);
    expect(again.carrierName).toBe('BRT');
    expect(store.manifests.list().map((x) => x.id)).toEqual([m.id]);
    expect(() =>
      store.manifests.save({ platformId: 502, carrierCode: 'X', totalShipments: 0, totalCost: 0, createdAt: 't', pdf: 'nope!' }),
    ).toThrow(expect.objectContaining({ code: 'invalid_input', details: { pdf: ['not valid base64'] } }));
  });
});
