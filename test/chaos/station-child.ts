/**
 * A station core in its own process, for the chaos runs (kill -9 needs a
 * process of its own). Configured by the environment variable
 * `CHAOS_STATION` (JSON {@link ChildConfig}); reads commands as JSON lines on
 * stdin `{id, name, input}` and answers JSON lines on stdout
 * `{id, ok: true, value}` or `{id, ok: false, error: {code, message}}`,
 * after a first line `{"ready": true}`.
 *
 * `killAfterCommit` (or the stdin line `{"arm": "after-commit"}`): the
 * process SIGKILLs itself when that many outbox rows (one, when armed) have
 * become `done` in it: right after the transaction that records the shipment
 * and its print job, before the label is printed (a step no outside observer
 * can hit exactly).
 */
import readline from 'node:readline';
import { invokeCommand } from '../../electron/core/station';
import { startStation } from '../../electron/shell/start';
import { toStationError } from '../../electron/core/common/errors';

/** What the parent passes in `CHAOS_STATION`. */
export interface ChildConfig {
  dataDir: string;
  baseUrl: string;
  authUrl: string;
  clientId: string;
  clientSecret: string;
  printerUri: string;
  /** Platform HTTP timeout, ms. */
  timeoutMs: number;
  settleMs: number;
  pollMs: number;
  printerTimeoutMs: number;
  rateLimits: boolean;
  killAfterCommit?: number;
}

async function main(): Promise<void> {
  const raw = process.env.CHAOS_STATION;
  if (!raw) throw new Error('CHAOS_STATION is not set');
  const cfg = JSON.parse(raw) as ChildConfig;
  const station = await startStation(
    {
      dataDir: cfg.dataDir,
      platform: { mode: 'platform', baseUrl: cfg.baseUrl, authUrl: cfg.authUrl, clientId: cfg.clientId, clientSecret: cfg.clientSecret },
      printerUri: cfg.printerUri,
      ignoredArgs: [],
    },
    {
      platformTimeoutMs: cfg.timeoutMs,
      shipmentSettle: { settleMs: cfg.settleMs, pollMs: cfg.pollMs },
      outboxBackoff: { baseMs: 300, maxMs: 3_000 },
      printerTimeoutMs: cfg.printerTimeoutMs,
      ...(cfg.rateLimits ? {} : { platformRateLimits: false as const }),
      log: (line) => process.stderr.write(`station: ${line}\n`),
    },
  );
  let done = 0;
  let killAt = cfg.killAfterCommit;
  station.events.on('outbox.changed', ({ state }) => {
    if (state !== 'done' || killAt === undefined) return;
    done++;
    if (done === killAt) process.kill(process.pid, 'SIGKILL');
  });
  const write = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);
  const rl = readline.createInterface({ input: process.stdin });
  rl.on('line', (line) => {
    let msg: { id: number; name: string; input: unknown; arm?: string };
    try {
      msg = JSON.parse(line) as typeof msg;
    } catch {
      return;
    }
    if (msg.arm === 'after-commit') {
      killAt = done + 1;
      return;
    }
    invokeCommand(station.handlers, msg.name, msg.input).then(
      (value) => write({ id: msg.id, ok: true, value }),
      (e: unknown) => {
        const s = toStationError(e);
        write({ id: msg.id, ok: false, error: { code: s.code, message: s.message } });
      },
    );
  });
  rl.on('close', () => {
    void station.close().then(() => process.exit(0));
  });
  write({ ready: true });
}

main().catch((e: unknown) => {
  process.stderr.write(`station child failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
