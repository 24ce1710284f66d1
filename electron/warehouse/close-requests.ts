/**
 * Closes of the day asked at a bench with the supervisor's PIN (issue 43 item 4; `close_requests`, schema 8): the
 * bench asks (`request_warehouse_close`, NOTIFY `warehouse_close_requests`), and the supervisor's program closes the
 * day as its page does (./day-close.ts, the place being that bench), then answers the request: `done` with the close,
 * or `refused` with why (no platform account, another close under way, the close failed). Requests are read on each
 * notification and every few seconds (a notification missed while the connection was away is not lost).
 */
import type { Pool, PoolClient } from 'pg';
import { closeDay } from './day-close';
import type { WarehousePlatform } from './platform';

/** How often waiting requests are looked for besides notifications, ms. */
const POLL_MS = 5000;

/** Options of {@link startCloseRequests}. */
export interface CloseRequestOptions {
  db: Pool;
  platform: WarehousePlatform | null;
  /** Failures to say; default stderr. */
  log?: (line: string) => void;
  /** Waits out a 429's Retry-After (tests); default setTimeout. */
  sleep?: (ms: number) => Promise<void>;
  pollMs?: number;
}

/**
 * Answers every waiting close request once, oldest first.
 * @throws the database's error
 */
async function answerCloseRequests(options: Omit<CloseRequestOptions, 'pollMs'>): Promise<number> {
  const { db } = options;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const waiting = await db.query<{ id: string; bench_id: string; packer: string | null }>(`SELECT id::text AS id, bench_id, packer FROM close_requests WHERE state = 'waiting' ORDER BY id`);
  for (const r of waiting.rows) {
    let state: 'done' | 'refused' = 'refused';
    let closeId: number | null = null;
    let message: string | null = null;
    // The bench says a known refusal in its own language (its code, `no_platform` or `closing`); others in the program's words.
    if (!options.platform) message = 'no_platform';
    else {
      try {
        const out = await closeDay({ db, platform: options.platform, packer: r.packer, place: r.bench_id, ...(options.sleep ? { sleep: options.sleep } : {}) });
        if (out.ok) {
          state = 'done';
          closeId = out.close.id;
        } else message = out.refusal.code;
      } catch (e) {
        message = `The day could not be closed: ${(e as Error).message}`;
        log(`warehouse: close of the day asked at ${r.bench_id} failed: ${(e as Error).message}`);
      }
    }
    await db.query(`UPDATE close_requests SET state = $2, close_id = $3, message = $4, answered_at = now() WHERE id = $1 AND state = 'waiting'`, [r.id, state, closeId, message]);
  }
  return waiting.rows.length;
}

/** Starts answering close requests (see the module doc); `stop` stops (a close under way ends first). */
export function startCloseRequests(options: CloseRequestOptions): { stop(): Promise<void> } {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let again = false;
  let listener: PoolClient | null = null;
  const kick = () => {
    if (stopped) return;
    if (again) return;
    again = true;
    running = running.then(async () => {
      again = false;
      if (stopped) return;
      try {
        await answerCloseRequests(options);
      } catch (e) {
        log(`warehouse: close requests could not be read: ${(e as Error).message}`);
      }
    });
  };
  const listen = async () => {
    try {
      listener = await options.db.connect();
      listener.on('notification', (n) => n.channel === 'warehouse_close_requests' && kick());
      listener.on('error', () => {
        listener?.release(true);
        listener = null;
      });
      await listener.query('LISTEN warehouse_close_requests');
      if (stopped) {
        listener.release();
        listener = null;
      }
    } catch (e) {
      log(`warehouse: close requests not listened to (read every ${(options.pollMs ?? POLL_MS) / 1000} s): ${(e as Error).message}`);
    }
  };
  void listen();
  kick();
  const timer = setInterval(kick, options.pollMs ?? POLL_MS);
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
      if (listener) {
        await listener.query('UNLISTEN *').catch(() => undefined);
        listener.release();
        listener = null;
      }
    },
  };
}
