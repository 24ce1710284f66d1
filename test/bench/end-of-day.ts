/**
 * End of day with a busy day behind it (issue 26): a data folder holding
 * 2,000 shipments made today (Europe/Rome), not yet in a manifest, shipped by
 * two packers (a scan and a ship row each in `activity`, some reprints), and
 * 2,000 on each of the four same weekdays before (the "usual" line of the
 * hourly chart); rows written by ./big-folder-seed.ts. Prints one line:
 *
 * `{"bench":"end-of-day","shipments":2000,"openMs":…,"unmanifestedMs":…,"manifestsMs":…,"statsMs":…,"weekMs":…,"monthMs":…,"reportMs":…}`
 * - openMs: what the End of day screen asks when it opens (`shipments.unmanifested`,
 *   `manifests.list`, `reports.day` together, as the screen sends them), median of 7;
 * - unmanifestedMs: `shipments.unmanifested` alone (the list of the day's 2,000 shipments), median of 7;
 * - manifestsMs: `manifests.list` alone, median of 7;
 * - statsMs / weekMs / monthMs: `reports.day` for the day, week, month alone, median of 7;
 * - reportMs: the day report (PDF with its charts as images, and CSV), median of 3.
 * Goal: openMs ≤ 200 ms.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createSandbox } from '../../electron/sandbox';
import { startStation } from '../../electron/shell/start';
import { databaseFile } from '../../electron/core/station';
import { openStore } from '../../electron/core/store';
import { addDays, romeDay, romeMidnight } from '../../shared/domain/rome-day';
import { seedBigFolder } from './big-folder-seed';
import { timed } from './stats';

const SHIPMENTS = 2000;
const DAY = 86_400_000;

/** The folder: today's 2,000 (unmanifested, with who packed them) and four earlier weeks. */
function seed(dir: string): void {
  const file = databaseFile(dir, 'platform');
  openStore(file).close();
  const today = romeDay(Date.now());
  for (let w = 4; w >= 0; w--) {
    // Each seeded day spans its Rome day exactly (23 or 25 hours across a DST change), so its rows fall inside it.
    const day = addDays(today, -7 * w);
    const start = romeMidnight(day);
    const next = romeMidnight(addDays(day, 1));
    seedBigFolder(file, { now: new Date(next), shipments: SHIPMENTS, days: (next - start) / DAY, labelBytes: 256, seed: 26 + w });
  }
  const db = new Database(file);
  const fromIso = new Date(romeMidnight(today)).toISOString();
  db.transaction(() => {
    db.prepare('UPDATE shipments SET manifest_id = NULL WHERE created_at >= ?').run(fromIso);
    db.prepare("INSERT INTO packers (id, name, badge, role, created_at, updated_at) VALUES (1, 'Anna', 'BADGE-ANNA', 'supervisor', ?, ?), (2, 'Marco', 'BADGE-MARCO', 'packer', ?, ?)").run(fromIso, fromIso, fromIso, fromIso);
    const rows = db.prepare<[string], { tracking_number: string; order_id: number; created_at: string }>('SELECT tracking_number, order_id, created_at FROM shipments WHERE created_at >= ? ORDER BY id').all(fromIso);
    const act = db.prepare("INSERT INTO activity (day, at, action, packer_id, packer_name, station_name, tracking_number, order_id) VALUES (?, ?, ?, ?, ?, 'Banco 3', ?, ?)");
    rows.forEach((r, i) => {
      const packer = i % 2 === 0 ? [1, 'Anna'] : [2, 'Marco'];
      const scanned = new Date(Date.parse(r.created_at) - 40_000 - (i % 30) * 1000).toISOString();
      act.run(today, scanned, 'scan', packer[0], packer[1], null, r.order_id);
      act.run(today, r.created_at, 'ship', packer[0], packer[1], r.tracking_number, r.order_id);
      if (i % 50 === 0) act.run(today, r.created_at, 'reprint', packer[0], packer[1], r.tracking_number, null);
    });
  })();
  db.close();
}

/** The end-of-day bench (see file comment). */
export async function benchEndOfDay(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'station-bench-eod-'));
  const printerDir = path.join(dir, 'labels');
  const sb = await createSandbox({ port: 0, rateLimits: false });
  try {
    seed(dir);
    const demo = sb.clients[0];
    if (!demo) throw new Error('sandbox has no demo client');
    const station = await startStation(
      { dataDir: dir, platform: { mode: 'platform', baseUrl: sb.baseUrl, authUrl: sb.authUrl, clientId: demo.clientId, clientSecret: demo.clientSecret }, printerUri: `file://${printerDir}`, ignoredArgs: [] },
      { platformRateLimits: false, listQueues: () => Promise.resolve([]), maintenance: { idleMs: 3_600_000 } },
    );
    try {
      const h = station.handlers;
      const day = await h['reports.day']({ range: 'day' });
      if (day.totals.shipments !== SHIPMENTS) throw new Error(`expected ${SHIPMENTS} shipments today, the figures say ${day.totals.shipments}`);
      const openMs = await timed(() => Promise.all([h['shipments.unmanifested']({}), h['manifests.list']({}), h['reports.day']({ range: 'day' })]), 7);
      const unmanifestedMs = await timed(() => h['shipments.unmanifested']({}), 7);
      const manifestsMs = await timed(() => h['manifests.list']({}), 7);
      const statsMs = await timed(() => h['reports.day']({ range: 'day' }), 7);
      const weekMs = await timed(() => h['reports.day']({ range: 'week' }), 7);
      const monthMs = await timed(() => h['reports.day']({ range: 'month' }), 7);
      const reportMs = await timed(() => h['reports.dayReport']({ language: 'it', save: false }), 3);
      console.log(JSON.stringify({ bench: 'end-of-day', shipments: SHIPMENTS, openMs, unmanifestedMs, manifestsMs, statsMs, weekMs, monthMs, reportMs }));
    } finally {
      await station.close();
    }
  } finally {
    await sb.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
