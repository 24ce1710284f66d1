/**
 * Labels as received from the platform (table `labels`): the bytes decoded
 * from the base64 `label.pdf` / `label.zpl` fields (spec: Resources > Label),
 * kept exactly, so a reprint within the retention needs no network (DESIGN.md
 * "Persistence"). After the retention (store/retention.ts) a label's bytes are
 * given back (`pruned_at` set, `bytes` empty): {@link LabelsRepo.getLatest}
 * no longer returns it, and a reprint fetches the label again from the platform.
 */
import type Database from 'better-sqlite3';
import { StoreError } from './errors';
import { isoNow, type Clock } from './sql';

/** Label format, as the spec's `label.format`. */
type LabelFormat = 'ZPL' | 'PDF';

/** A stored label; `bytes` are the raw PDF or ZPL bytes. */
interface LabelRecord {
  id: number;
  trackingNumber: string;
  format: LabelFormat;
  bytes: Uint8Array;
  createdAt: string;
}

/** A label without its bytes, for lists. `size` in bytes. */
type LabelInfo = Omit<LabelRecord, 'bytes'> & { size: number };

/** Repository of labels. */
export interface LabelsRepo {
  /**
   * Stores label bytes for a shipment that is already in `shipments`.
   * @throws StoreError `invalid_input` for empty bytes; SQLite FOREIGN KEY error for an unknown tracking number.
   */
  save(trackingNumber: string, format: LabelFormat, bytes: Uint8Array): LabelRecord;
  /**
   * Decodes base64 (line breaks allowed) and stores it.
   * @throws StoreError `invalid_input` (details key `label.pdf` / `label.zpl`) when the text is not base64 or empty.
   */
  saveBase64(trackingNumber: string, format: LabelFormat, base64: string): LabelRecord;
  /** Stores every non-null format of a platform Label object (`pdf`, `zpl` base64). Returns what was stored. */
  saveFromPlatform(trackingNumber: string, label: { pdf?: string | null; zpl?: string | null }): LabelRecord[];
  get(id: number): LabelRecord | undefined;
  /** Newest label of the shipment still holding its bytes (not pruned), of `format` when given. */
  getLatest(trackingNumber: string, format?: LabelFormat): LabelRecord | undefined;
  listForShipment(trackingNumber: string): LabelInfo[];
  /** The label formats stored for each of `trackingNumbers`, in one query (lists of shipments). */
  formatsOf(trackingNumbers: readonly string[]): Map<string, Set<LabelFormat>>;
}

interface LabelRow {
  id: number;
  tracking_number: string;
  format: LabelFormat;
  bytes: Buffer;
  created_at: string;
}

function labelFromRow(r: LabelRow): LabelRecord {
  return { id: r.id, trackingNumber: r.tracking_number, format: r.format, bytes: r.bytes, createdAt: r.created_at };
}

/**
 * Strict base64 decoding (Node's decoder silently skips junk). Accepts
 * standard alphabet, optional `=` padding and line breaks/spaces.
 * @throws StoreError `invalid_input` naming `field`.
 */
export function decodeBase64Strict(text: string, field: string): Buffer {
  const s = text.replace(/[\r\n\t ]/g, '');
  if (s === '' || !/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 === 1 || (s.includes('=') && s.length % 4 !== 0)) {
    throw new StoreError('invalid_input', `${field} is not valid base64`, { [field]: ['not valid base64'] });
  }
  return Buffer.from(s, 'base64');
}

/** Builds the labels repository on an open database. */
export function createLabelsRepo(db: Database.Database, clock: Clock): LabelsRepo {
  const insert = db.prepare<[string, LabelFormat, Buffer, string], never>(
    'INSERT INTO labels (tracking_number, format, bytes, created_at) VALUES (?, ?, ?, ?)',
  );
  const byId = db.prepare<[number], LabelRow>('SELECT id, tracking_number, format, bytes, created_at FROM labels WHERE id = ?');
  const latest = db.prepare<{ t: string; f: LabelFormat | null }, LabelRow>(
    `SELECT id, tracking_number, format, bytes, created_at FROM labels
     WHERE tracking_number = @t AND (@f IS NULL OR format = @f) AND pruned_at IS NULL ORDER BY id DESC LIMIT 1`,
  );
  const list = db.prepare<[string], Omit<LabelRow, 'bytes'> & { size: number }>(
    `SELECT id, tracking_number, format, length(bytes) AS size, created_at FROM labels WHERE tracking_number = ? ORDER BY id`,
  );

  const formats = db.prepare<[string], { tracking_number: string; format: LabelFormat }>(
    'SELECT DISTINCT tracking_number, format FROM labels WHERE tracking_number IN (SELECT value FROM json_each(?))',
  );

  const save = (trackingNumber: string, format: LabelFormat, bytes: Uint8Array): LabelRecord => {
    if (format !== 'ZPL' && format !== 'PDF') {
      throw new StoreError('invalid_input', `Label format must be ZPL or PDF, got ${String(format)}`, { format: ['must be ZPL or PDF'] });
    }
    if (bytes.length === 0) throw new StoreError('invalid_input', 'Label is empty', { bytes: ['empty'] });
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const res = insert.run(trackingNumber, format, buf, isoNow(clock));
    const row = byId.get(Number(res.lastInsertRowid));
    if (!row) throw new StoreError('not_found', 'Label vanished');
    return labelFromRow(row);
  };

  return {
    save,
    saveBase64: (t, format, b64) => save(t, format, decodeBase64Strict(b64, format === 'PDF' ? 'label.pdf' : 'label.zpl')),
    saveFromPlatform: db.transaction((t: string, label: { pdf?: string | null; zpl?: string | null }): LabelRecord[] => {
      const out: LabelRecord[] = [];
      if (label.zpl) out.push(save(t, 'ZPL', decodeBase64Strict(label.zpl, 'label.zpl')));
      if (label.pdf) out.push(save(t, 'PDF', decodeBase64Strict(label.pdf, 'label.pdf')));
      return out;
    }),
    get(id) {
      const r = byId.get(id);
      return r ? labelFromRow(r) : undefined;
    },
    getLatest(t, format) {
      const r = latest.get({ t, f: format ?? null });
      return r ? labelFromRow(r) : undefined;
    },
    listForShipment: (t) =>
      list.all(t).map((r) => ({ id: r.id, trackingNumber: r.tracking_number, format: r.format, size: r.size, createdAt: r.created_at })),
    formatsOf(trackingNumbers) {
      const out = new Map<string, Set<LabelFormat>>();
      for (const r of formats.all(JSON.stringify(trackingNumbers))) {
        const set = out.get(r.tracking_number);
        if (set) set.add(r.format);
        else out.set(r.tracking_number, new Set([r.format]));
      }
      return out;
    },
  };
}
