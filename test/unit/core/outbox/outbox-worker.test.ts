/**
 * The outbox worker on a temp store with scripted executors: outcomes,
 * transient vs definitive failures, order of sending, crash recovery,
 * the HTTP status kept on a refused row.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createOutboxWorker, eraseExecutor, INTERRUPTED_CODE, type OutboxExecutor } from '../../../../electron/core/outbox/worker';
import { OutboxAttention, OutboxWait } from '../../../../electron/core/outbox/press-errors';
import { outcomeOfCode } from '../../../../shared/contract/outbox-outcome';
import { PlatformError, RateWindowFull } from '../../../../electron/core/platform/errors';
import type { OutboxRecord } from '../../../../electron/core/store';
import { tempStore, testClock } from '../store/helpers';

interface Payload {
  name: string;
}

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A store, a worker whose `shipment.create` executor answers from `script`, and the log of sends. */
function setup(script: (row: OutboxRecord<Payload>) => Promise<string>, hooks: Partial<OutboxExecutor<Payload, string, string, string>> = {}) {
  const clock = testClock();
  const t = tempStore(clock);
  const sent: Array<{ name: string; attempts: number }> = [];
  const committed: string[] = [];
  const executor: OutboxExecutor<Payload, string, string, string> = {
    async send(row) {
      sent.push({ name: row.payload.name, attempts: row.attempts });
      return script(row);
    },
    commit(_row, answer) {
      committed.push(answer);
      return { local: answer, result: { answer } };
    },
    async after(_row, local) {
      return `outcome:${local}`;
    },
    ...hooks,
  };
  const listeners: Array<(row: OutboxRecord) => void> = [];
  const worker = createOutboxWorker({
    store: t.store,
    executors: { 'shipment.create': eraseExecutor(executor) },
    now: clock.now,
    backoff: { baseMs: 600_000 },
    onRowChange: (row) => listeners.forEach((l) => l(row)),
  });
  cleanups.push(t.cleanup, () => t.store.close(), () => worker.stop());
  const enqueue = (name: string) => t.store.outbox.enqueue({ kind: 'shipment.create', payload: { name }, localRef: `test:${name}` }).id;
  const onRowChange = (l: (row: OutboxRecord) => void) => listeners.push(l);
  return { store: t.store, worker, sent, committed, enqueue, onRowChange };
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

describe('outbox worker', () => {
  it('sends a row, commits in the same transaction as done, resolves with the after() outcome', async () => {
    const { store, worker, enqueue, committed } = setup(async (row) => `LDV-${row.payload.name}`);
    const id = enqueue('a');
    await expect(worker.process(id)).resolves.toBe('outcome:LDV-a');
    expect(committed).toEqual(['LDV-a']);
    expect(store.outbox.get(id)).toMatchObject({ state: 'done', attempts: 1, result: { answer: 'LDV-a' } });
  });

  it('keeps transient failures queued (offline, timeout, 429, 5xx) and rejects with the platform error', async () => {
    const errors = [
      new PlatformError(0, 'offline', 'down'),
      new PlatformError(0, 'timeout', 'slow'),
      new PlatformError(429, 'rate_limited', 'busy'),
      new PlatformError(502, 'carrier_error', 'carrier silent'),
    ];
    let n = 0;
    const { store, worker, enqueue, sent } = setup(async () => {
      throw errors[n++];
    });
    const id = enqueue('a');
    for (const expected of errors) {
      expect(await rejection(worker.process(id))).toBe(expected);
      expect(store.outbox.get(id)).toMatchObject({ state: 'queued', lastError: { code: expected.code } });
    }
    expect(sent.map((s) => s.attempts)).toEqual([1, 2, 3, 4]);
    expect(store.outbox.countPending()).toBe(1);
  });

  it('gives a row up on a definitive refusal and lets the executor clean up in the same transaction', async () => {
    const attention: string[] = [];
    const { store, worker, enqueue } = setup(
      async () => {
        throw new PlatformError(422, 'validation_failed', 'bad', { 'recipient.name': ['Name is required'] });
      },
      {
        onAttention(row, error) {
          attention.push(`${row.payload.name}:${error.code}`);
        },
      },
    );
    const id = enqueue('a');
    const e = await rejection(worker.process(id));
    expect(e).toBeInstanceOf(PlatformError);
    expect(store.outbox.get(id)).toMatchObject({ state: 'needs_attention', lastError: { code: 'validation_failed', details: { 'recipient.name': ['Name is required'] } } });
    expect(attention).toEqual(['a:validation_failed']);

    const { worker: w2, enqueue: enq2, store: s2 } = setup(async () => {
      throw new OutboxAttention('invalid_state', 'check first');
    });
    const id2 = enq2('b');
    expect(await rejection(w2.process(id2))).toBeInstanceOf(OutboxAttention);
    expect(s2.outbox.get(id2)?.state).toBe('needs_attention');
  });

  it('sends older rows first and stops the drain at the first transient failure', async () => {
    let down = true;
    const { worker, enqueue, sent, store } = setup(async (row) => {
      if (down) throw new PlatformError(0, 'offline', 'down');
      return row.payload.name;
    });
    const a = enqueue('a');
    const b = enqueue('b');
    // Asking for b runs a first; a fails offline and b is not even tried: b's press hears
    // its own row's outcome (queued, and why), not a's error (issue 16).
    const e = await rejection(worker.process(b));
    expect(e).toMatchObject({ code: 'queued', message: expect.stringContaining('not reachable') });
    expect(store.outbox.get(b)).toMatchObject({ state: 'queued', attempts: 0 });
    expect(sent.map((s) => s.name)).toEqual(['a']);
    down = false;
    await expect(worker.process(b)).resolves.toBe('outcome:b');
    expect(sent.map((s) => s.name)).toEqual(['a', 'a', 'b']);
    expect(store.outbox.get(a)?.state).toBe('done');
  });

  it('answers a waiter whose row a running drain picks up, once', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { worker, enqueue, sent } = setup(async (row) => {
      if (row.payload.name === 'a') await gate;
      return row.payload.name;
    });
    const a = enqueue('a');
    const pa = worker.process(a);
    const b = enqueue('b');
    const pb = worker.process(b);
    release();
    await expect(pa).resolves.toBe('outcome:a');
    await expect(pb).resolves.toBe('outcome:b');
    expect(sent.map((s) => s.name)).toEqual(['a', 'b']);
  });

  it('recovers rows left sending by a crash: queued again, marked interrupted, attempts kept', async () => {
    const { store, worker, enqueue, sent } = setup(async (row) => `again-${row.attempts}`);
    const id = enqueue('a');
    expect(store.outbox.claimNext()?.id).toBe(id); // the crash happened here
    expect(worker.recover()).toEqual([id]);
    expect(store.outbox.get(id)).toMatchObject({ state: 'queued', attempts: 1, lastError: { code: INTERRUPTED_CODE, text: { key: 'outboxInterrupted' } } });
    await expect(worker.process(id)).resolves.toBe('outcome:again-2');
    expect(sent).toEqual([{ name: 'a', attempts: 2 }]); // attempts > 1 tells the executor to reconcile
  });

  it('keeps the HTTP status of a refusal (none without an answer); a dismissed row leaves other queued rows queued', async () => {
    const { store, worker, enqueue } = setup(async (row) => {
      if (row.payload.name === 'bad') throw new PlatformError(422, 'validation_failed', 'bad', { 'recipient.name': ['required'] });
      if (row.payload.name === 'local') throw new OutboxAttention('invalid_state', 'cannot tell');
      return row.payload.name;
    });
    const bad = enqueue('bad');
    await rejection(worker.process(bad));
    expect(store.outbox.get(bad)).toMatchObject({ state: 'needs_attention', lastError: { code: 'validation_failed', status: 422, details: { 'recipient.name': ['required'] } } });
    const local = enqueue('local');
    await rejection(worker.process(local));
    expect(store.outbox.get(local)?.lastError).toEqual({ code: 'invalid_state', message: 'cannot tell' });

    const waiting = enqueue('waiting');
    expect(store.outbox.dismiss(bad, { supersededBy: 99 })).toMatchObject({ state: 'done', result: { supersededBy: 99 } });
    expect(store.outbox.get(waiting)).toMatchObject({ state: 'queued', attempts: 0 });
    expect(store.outbox.countPending()).toBe(2);
  });

  it('background start sends what is queued', async () => {
    const { store, worker, enqueue, onRowChange } = setup(async (row) => row.payload.name);
    const id = enqueue('a');
    const done = new Promise<void>((resolve) => onRowChange((row) => row.id === id && row.state === 'done' && resolve()));
    worker.start();
    await done;
    expect(store.outbox.countPending()).toBe(0);
  });

  it('gives every press its own row\'s outcome: one row\'s 500 is not reported to the others of the batch (issue 16)', async () => {
    const { store, worker, enqueue, sent } = setup(async (row) => {
      if (row.payload.name === 'b' && row.attempts === 1) throw new PlatformError(500, 'internal_error', 'b broke', undefined, undefined, 'POST /shipments');
      return `LDV-${row.payload.name}`;
    });
    const ids = ['a', 'b', 'c', 'd'].map(enqueue);
    const outcomes = await Promise.allSettled(ids.map((id) => worker.process(id)));
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as { code: string }).code))).toEqual([
      'outcome:LDV-a',
      'internal_error',
      'outcome:LDV-c',
      'outcome:LDV-d',
    ]);
    expect(store.outbox.get(ids[1]!)).toMatchObject({ state: 'queued', lastError: { code: 'internal_error', status: 500 } });
    expect(sent.map((x) => x.name)).toEqual(['a', 'b', 'c', 'd']);
    // b waits its own back-off, then is sent on its own.
    await expect(worker.process(ids[1]!)).resolves.toBe('outcome:LDV-b');
  });

  it('rejects a press with a code whose class matches its row: unknown 5xx -> queued, unknown 4xx -> needs attention', async () => {
    const answers = [new PlatformError(599, 'http_error', 'odd gateway'), new PlatformError(418, 'http_error', 'teapot', undefined, undefined, 'POST /shipments')];
    let n = 0;
    const { store, worker, enqueue } = setup(async () => {
      throw answers[n++];
    });
    const id = enqueue('a');
    const first = (await rejection(worker.process(id))) as { code: string; message: string };
    expect(store.outbox.get(id)?.state).toBe('queued');
    expect(first).toMatchObject({ code: 'queued', message: expect.stringContaining('[http_error]') });
    expect(outcomeOfCode(first.code)).toBe('queued');
    const second = (await rejection(worker.process(id))) as { code: string };
    expect(store.outbox.get(id)?.state).toBe('needs_attention');
    expect(outcomeOfCode(second.code)).toBe('needs_attention');
  });

  it('an executor that must look again later (OutboxWait) leaves its row queued, due at that time, and the drain goes on', async () => {
    const until = new Date('2026-10-01T08:00:05.000Z');
    const { store, worker, enqueue } = setup(async (row) => {
      if (row.payload.name === 'a') throw new OutboxWait(until, 'checking the platform');
      return 'ok';
    });
    const a = enqueue('a');
    const b = enqueue('b');
    const [ra, rb] = await Promise.allSettled([worker.process(a), worker.process(b)]);
    expect(ra).toMatchObject({ status: 'rejected', reason: { code: 'queued', message: 'checking the platform' } });
    expect(rb).toMatchObject({ status: 'fulfilled', value: 'outcome:ok' });
    expect(store.outbox.get(a)).toMatchObject({ state: 'queued', nextAttemptAt: until.toISOString() });
  });

  it('a request the rate window has no room for (RateWindowFull) waits queued for its slot, the press told when, and the drain goes on', async () => {
    const { store, worker, enqueue } = setup(async (row) => {
      if (row.payload.name === 'a') throw new RateWindowFull('POST /pickups', 42_000, 10);
      return 'ok';
    });
    const a = enqueue('a');
    const b = enqueue('b');
    const [ra, rb] = await Promise.allSettled([worker.process(a), worker.process(b)]);
    expect(ra).toMatchObject({
      status: 'rejected',
      reason: { code: 'queued', message: 'The platform allows 10 POST /pickups requests a minute; the next one can leave in 42 s. This request is queued and leaves by itself at 10:00:42.' },
    });
    expect(rb).toMatchObject({ status: 'fulfilled', value: 'outcome:ok' });
    expect(store.outbox.get(a)).toMatchObject({ state: 'queued', nextAttemptAt: '2026-10-01T08:00:42.000Z' });
  });
});
