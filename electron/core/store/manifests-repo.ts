/**
 * Manifests (closing lists) created by this station (table `manifests`),
 * with the PDF kept as received (spec: Resources > Manifest; `pdf` is base64
 * on creation).
 */
import type Database from 'better-sqlite3';
import { StoreError } from './errors';
import { decodeBase64Strict } from './labels-repo';
import { isoNow, nul, type Clock } from './sql';

/**
 * A manifest without its PDF bytes.
 * - `platformId`: the platform's manifest `id`;
 * - `totalCost`: in EUR, as the platform reported it;
 * - `createdAt`: the platform's `createdAt`; `storedAt`: when the station saved it.
 */
export interface ManifestRecord {
  id: number;
  platformId: number;
  carrierCode: string;
  carrierName: string | null;
  contractCode: string | null;
  totalShipments: number;
  totalCost: number;
  createdAt: string;
  storedAt: string;
  hasPdf: boolean;
}

/** Input for {@link ManifestsRepo.save}: the platform Manifest's fields; `pdf` as base64 text or bytes. */
export interface ManifestInput {
  platformId: number;
  carrierCode: string;
  carrierName?: string;
  contractCode?: string;
  totalShipments: number;
  totalCost: number;
  createdAt: string;
  pdf?: string | Uint8Array;
}

/** Repository of manifests. */
export interface ManifestsRepo {
  /**
   * Inserts, or updates the row with the same `platformId` (a PDF already stored is
   * kept when `pdf` is absent). @throws StoreError `invalid_input` (details `pdf`) for bad base64.
   */
  save(m: ManifestInput): ManifestRecord;
  get(id: number): ManifestRecord | undefined;
  getByPlatformId(platformId: number): ManifestRecord | undefined;
  /** Newest first; `limit` default 100. */
  list(opts?: { limit?: number }): ManifestRecord[];
  /** The PDF bytes, or undefined when none is stored. */
  getPdf(id: number): Uint8Array | undefined;
}

interface ManifestRow {
  id: number;
  platform_id: number;
  carrier_code: string;
  carrier_name: string | null;
  contract_code: string | null;
  total_shipments: number;
  total_cost: number;
  created_at: string;
  stored_at: string;
  has_pdf: number;
}

function manifestFromRow(r: ManifestRow): ManifestRecord {
  return {
    id: r.id,
    platformId: r.platform_id,
    carrierCode: r.carrier_code,
    carrierName: r.carrier_name,
    contractCode: r.contract_code,
    totalShipments: r.total_shipments,
    totalCost: r.total_cost,
    createdAt: r.created_at,
    storedAt: r.stored_at,
    hasPdf: r.has_pdf === 1,
  };
}

/** Builds the manifests repository on an open database. */
export function createManifestsRepo(db: Database.Database, clock: Clock): ManifestsRepo {
  const COLS = `id, platform_id, carrier_code, carrier_name, contract_code, total_shipments, total_cost, created_at,
    stored_at, (pdf IS NOT NULL) AS has_pdf`;
  const byId = db.prepare<[number], ManifestRow>(`SELECT ${COLS} FROM manifests WHERE id = ?`);
  const byPlatform = db.prepare<[number], ManifestRow>(`SELECT ${COLS} FROM manifests WHERE platform_id = ?`);
  const upsert = db.prepare<Record<string, unknown>, never>(
    `INSERT INTO manifests (platform_id, carrier_code, carrier_name, contract_code, pdf, total_shipments, total_cost,
       created_at, stored_at)
     VALUES (@platform_id, @carrier_code, @carrier_name, @contract_code, @pdf, @total_shipments, @total_cost,
       @created_at, @now)
     ON CONFLICT (platform_id) DO UPDATE SET carrier_code = excluded.carrier_code,
       carrier_name = COALESCE(excluded.carrier_name, carrier_name),
       contract_code = COALESCE(excluded.contract_code, contract_code), pdf = COALESCE(excluded.pdf, pdf),
       total_shipments = excluded.total_shipments, total_cost = excluded.total_cost, created_at = excluded.created_at`,
  );
  const pdfOf = db.prepare<[number], { pdf: Buffer | null }>('SELECT pdf FROM manifests WHERE id = ?');

  return {
    save(m) {
      let pdf: Buffer | null = null;
      if (typeof m.pdf === 'string') pdf = decodeBase64Strict(m.pdf, 'pdf');
      else if (m.pdf !== undefined) pdf = Buffer.from(m.pdf.buffer, m.pdf.byteOffset, m.pdf.byteLength);
      upsert.run({
        platform_id: m.platformId,
        carrier_code: m.carrierCode,
        carrier_name: nul(m.carrierName),
        contract_code: nul(m.contractCode),
        pdf,
        total_shipments: m.totalShipments,
        total_cost: m.totalCost,
        created_at: m.createdAt,
        now: isoNow(clock),
      });
      const r = byPlatform.get(m.platformId);
      if (!r) throw new StoreError('not_found', `Manifest ${m.platformId} vanished`);
      return manifestFromRow(r);
    },
    get(id) {
      const r = byId.get(id);
      return r ? manifestFromRow(r) : undefined;
    },
    getByPlatformId(platformId) {
      const r = byPlatform.get(platformId);
      return r ? manifestFromRow(r) : undefined;
    },
    list(opts = {}) {
      return db
        .prepare<[number], ManifestRow>(`SELECT ${COLS} FROM manifests ORDER BY created_at DESC, id DESC LIMIT ?`)
        .all(Math.max(1, Math.min(1000, Math.floor(opts.limit ?? 100))))
        .map(manifestFromRow);
    },
    getPdf(id) {
      return pdfOf.get(id)?.pdf ?? undefined;
    },
  };
}
