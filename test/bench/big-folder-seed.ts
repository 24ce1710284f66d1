/**
 * A data folder as a year (or three) at the bench leaves it (issue 27), written
 * directly in the station's schema with prepared statements in big
 * transactions: per shipment an order (1–3 lines, its search index row), the
 * shipment with the platform's answer (JSON, label left out, as the station
 * stores it), its ZPL label (2–20 KB, as a real carrier's), its `auto` print
 * job and packing slip; per day one manifest per contract (a 30 KB PDF). What
 * the station's retention keeps (90 days) is what is written: label bytes and
 * done outbox rows of the last 90 days only; older labels are rows marked
 * pruned, as the station leaves them. Deterministic for a seed.
 *
 * Used by the big-folder bench (./big-folder.ts) and, small, by the query-plan
 * test (test/integration/core/query-plans.test.ts).
 */
import Database from 'better-sqlite3';
import { mulberry32 } from '../../shared/domain/random';

/** What to write: `shipments` spread over `days` days ending `endDaysAgo` days before `now`. */
export interface SeedPlan {
  now: Date;
  shipments: number;
  days: number;
  /** Days before `now` the newest shipment is (0 = today). */
  endDaysAgo?: number;
  /** Days label bytes and done outbox rows are kept (default 90). */
  retentionDays?: number;
  /** Label bytes are random within 2–20 KB; `labelBytes` fixes them (the query-plan test uses small ones). */
  labelBytes?: number;
  seed?: number;
}

const FIRST = ['Giulia', 'Marco', 'Francesca', 'Luca', 'Chiara', 'Alessandro', 'Sara', 'Matteo', 'Elena', 'Davide', 'Anna', 'Paolo'];
const LAST = ['Rossi', 'Bianchi', 'Romano', 'Colombo', 'Ricci', 'Marino', 'Greco', 'Bruno', 'Gallo', 'Conti', 'De Luca', 'Mancini', 'Costa', 'Giordano', 'Rizzo', 'Lombardi'];
const CITIES: Array<[string, string, string]> = [
  ['Milano', 'MI', '20123'],
  ['Roma', 'RM', '00184'],
  ['Torino', 'TO', '10123'],
  ['Napoli', 'NA', '80133'],
  ['Bologna', 'BO', '40121'],
  ['Firenze', 'FI', '50122'],
  ['Verona', 'VR', '37121'],
  ['Bari', 'BA', '70121'],
];
const PRODUCTS: Array<[string, string, number]> = [
  ['TAZ-CER-BLU', 'Tazza in ceramica blu', 12.5],
  ['PIA-CER-ROS', 'Piatto in ceramica rosso', 18],
  ['SAP-OLI-100', 'Sapone all\'olio d\'oliva', 6],
  ['CAN-LAV-200', 'Candela alla lavanda', 14],
  ['VAS-TER-30', 'Vaso in terracotta 30 cm', 32],
  ['TOV-LIN-NAT', 'Tovaglia di lino naturale', 45],
];
const CONTRACTS: Array<[string, string]> = [
  ['BRT-STD', 'BRT'],
  ['GLS-EXP', 'GLS'],
];

/** A ZPL label of about `size` bytes: text fields and a ^GFA graphic of hex digits, as carriers send. */
function zplLabel(tracking: string, name: string, city: string, size: number, rnd: () => number): Buffer {
  const head = `^XA^CI28^PW812^LL1218^FO40,40^A0N,40,40^FD${name}^FS^FO40,100^A0N,30,30^FD${city}^FS^FO40,900^BCN,200,Y,N,N^FD${tracking}^FS`;
  const tail = '^XZ';
  const hexLen = Math.max(0, size - head.length - tail.length - 30);
  const hex = Buffer.alloc(hexLen);
  const digits = '0123456789ABCDEF';
  for (let i = 0; i < hexLen; i++) hex[i] = digits.charCodeAt(Math.floor(rnd() * 16));
  return Buffer.concat([Buffer.from(`${head}^FO40,200^GFA,${hexLen},${hexLen},100,`), hex, Buffer.from(`^FS${tail}`)]);
}

/**
 * Writes the plan's rows into the station database `file` (already created
 * and migrated by `openStore`, then closed). Returns the shipments written.
 */
export function seedBigFolder(file: string, plan: SeedPlan): number {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('foreign_keys = OFF');
  const rnd = mulberry32(plan.seed ?? 27);
  const retentionMs = (plan.retentionDays ?? 90) * 86_400_000;
  const now = plan.now.getTime();
  const end = now - (plan.endDaysAgo ?? 0) * 86_400_000;
  const span = plan.days * 86_400_000;
  // Grown folders go on after the rows already there (the bench's own shipments included).
  const first =
    1 + Math.max(...['orders', 'shipments', 'labels'].map((t) => db.prepare<[], { m: number | null }>(`SELECT max(id) AS m FROM ${t}`).get()?.m ?? 0));

  const order = db.prepare(
    `INSERT INTO orders (id, shop, order_key, order_number, source, email, created_at, recipient_name, street, city, province, postal_code,
       country_code, phone, total, currency, status, shipment_tracking_number, external_id, payment_status, delivery, shipping_method, stored_at, updated_at)
     VALUES (@id, 'main', @num, @num, 'shopify_csv', @email, @at, @name, @street, @city, @prov, @cap, 'IT', @phone, @total, 'EUR', 'shipped', @ldv, @ext,
       'paid', 'ship', 'Standard', @at, @at)`,
  );
  const item = db.prepare(`INSERT INTO order_items (order_id, position, sku, name, quantity, unit_price, fulfilled) VALUES (?, ?, ?, ?, ?, ?, 1)`);
  const fts = db.prepare(`INSERT INTO orders_fts (rowid, order_number, recipient_name, city, skus, details) VALUES (?, ?, ?, ?, ?, ?)`);
  const manifest = db.prepare(
    `INSERT INTO manifests (id, platform_id, carrier_code, carrier_name, contract_code, pdf, total_shipments, total_cost, created_at, stored_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const shipment = db.prepare(
    `INSERT INTO shipments (id, tracking_number, platform_id, order_id, reference, contract_code, carrier_code, status_key, cost_total, currency,
       manifest_id, platform, created_at, updated_at)
     VALUES (@id, @ldv, @id, @id, @ref, @contract, @carrier, 'delivered', @cost, 'EUR', @manifest, @platform, @at, @at)`,
  );
  const label = db.prepare(`INSERT INTO labels (id, tracking_number, format, bytes, created_at, pruned_at) VALUES (?, ?, 'ZPL', ?, ?, ?)`);
  const job = db.prepare(
    `INSERT INTO print_jobs (label_id, printer_uri, state, attempts, bytes_written, requested_by, created_at, printed_at, updated_at)
     VALUES (?, 'socket://192.168.1.50:9100', 'printed', 1, ?, 'auto', ?, ?, ?)`,
  );
  const slip = db.prepare(
    `INSERT INTO slip_jobs (order_id, tracking_number, printer_uri, format, state, attempts, requested_by, created_at, printed_at, updated_at)
     VALUES (?, ?, 'socket://192.168.1.51:9100', 'escpos', 'printed', 1, 'auto', ?, ?, ?)`,
  );
  const outbox = db.prepare(
    `INSERT INTO outbox (kind, payload, state, attempts, result, local_ref, created_at, updated_at) VALUES ('shipment.create', ?, 'done', 1, ?, ?, ?, ?)`,
  );
  const manifestPdf = Buffer.alloc(30_000, 0x25);
  const manifestIds = new Map<string, number>();
  let nextManifest = (db.prepare<[], { m: number | null }>('SELECT max(id) AS m FROM manifests').get()?.m ?? 0) + 1;

  const writeBatch = db.transaction((from: number, to: number) => {
    for (let k = from; k < to; k++) {
      const n = first + k;
      const at = new Date(end - span + Math.floor((k / plan.shipments) * span)).toISOString();
      const atMs = Date.parse(at);
      const name = `${FIRST[Math.floor(rnd() * FIRST.length)]} ${LAST[Math.floor(rnd() * LAST.length)]}`;
      const [city, prov, cap] = CITIES[Math.floor(rnd() * CITIES.length)]!;
      const num = `#${100000 + n}`;
      const ldv = `LDV${String(n).padStart(10, '0')}`;
      const [contract, carrier] = CONTRACTS[n % CONTRACTS.length]!;
      const lines = 1 + Math.floor(rnd() * 3);
      const chosen = Array.from({ length: lines }, () => PRODUCTS[Math.floor(rnd() * PRODUCTS.length)]!);
      const total = chosen.reduce((s, p) => s + p[2], 0);
      const phone = `+39 3${String(Math.floor(rnd() * 1e9)).padStart(9, '0')}`;
      const email = `${name.toLowerCase().replace(/ /g, '.')}${n % 97}@example.it`;
      const street = `Via ${LAST[n % LAST.length]} ${1 + (n % 120)}`;
      order.run({ id: n, num, email, at, name, street, city, prov, cap, phone, total, ldv, ext: String(5_000_000_000 + n) });
      chosen.forEach((p, i) => item.run(n, i, p[0], p[1], 1, p[2]));
      fts.run(n, num, name, city, chosen.map((p) => p[0]).join(' '), [cap, phone, email, ...chosen.map((p) => p[1])].join(' '));
      const day = at.slice(0, 10);
      const mKey = `${day}/${contract}`;
      let mId = manifestIds.get(mKey);
      if (mId === undefined) {
        mId = nextManifest++;
        manifestIds.set(mKey, mId);
        manifest.run(mId, mId, carrier, carrier, contract, manifestPdf, 500, 3000, `${day}T18:00:00.000Z`, `${day}T18:00:00.000Z`);
      }
      const cost = 5.9 + (n % 7);
      const platform = JSON.stringify({
        trackingNumber: ldv,
        id: n,
        reference: `main/${num}`,
        serviceType: contract,
        carrier: { code: carrier, name: carrier },
        status: { key: 'delivered', label: 'Delivered', at },
        sender: { name: 'Bottega Verdi', address: { street: 'Via Garibaldi 8', city: 'Firenze', postalCode: '50123', countryCode: 'IT' } },
        recipient: { name, phone, email, address: { street, city, province: prov, postalCode: cap, countryCode: 'IT' } },
        packages: [{ weight: { value: 1.4, units: 'KG' }, dimensions: { length: 30, width: 20, height: 12, units: 'CM' } }],
        cost: { total: cost, currency: 'EUR', lines: [{ code: 'freight', amount: cost - 1 }, { code: 'fuel', amount: 1 }] },
        createdAt: at,
      });
      shipment.run({ id: n, ldv, ref: `main/${num}`, contract, carrier, cost, manifest: mId, platform, at });
      const kept = now - atMs < retentionMs;
      const size = plan.labelBytes ?? 2048 + Math.floor(rnd() * 18_432);
      label.run(n, ldv, kept ? zplLabel(ldv, name, city, size, rnd) : Buffer.alloc(0), at, kept ? null : new Date(atMs + retentionMs).toISOString());
      job.run(n, size, at, at, at);
      slip.run(n, ldv, at, at, at);
      if (kept) {
        const payload = JSON.stringify({ orderId: n, localShipmentId: n, request: { reference: `main/${num}`, serviceType: contract, recipient: { name, address: { street, city, postalCode: cap, countryCode: 'IT' } }, packages: [{ weight: { value: 1.4, units: 'KG' } }] } });
        outbox.run(payload, JSON.stringify({ trackingNumber: ldv, id: n }), `shipment:${n}`, at, at);
      }
    }
  });
  const BATCH = 10_000;
  for (let k = 0; k < plan.shipments; k += BATCH) writeBatch(k, Math.min(plan.shipments, k + BATCH));
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return plan.shipments;
}
