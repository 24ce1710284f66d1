/**
 * Outbox rows `manifest.create`: POST /manifests with the tracking numbers of
 * the day (spec: Endpoints > Manifests). One manifest per contract comes
 * back, each with its base64 PDF.
 *
 * Sending again is harmless on the platform's side (shipments already in a
 * manifest are left out; when none is left it answers 404), but the answer
 * of an interrupted attempt is lost. So after an earlier attempt the executor
 * also asks GET /shipments/{ldv} for the shipments no returned manifest
 * holds, and fetches their manifests with GET /manifests/{id}?pdf=true.
 */
import type { Manifest } from '../../../shared/platform/resources';
import type { PlatformClient } from '../platform/client-api';
import { PlatformError } from '../platform/errors';
import type { ManifestInput, ManifestRecord, OutboxRecord, Store } from '../store';
import type { OutboxExecutor } from '../outbox/worker';

/** Payload of a `manifest.create` row. */
export interface ManifestCreatePayload {
  trackingNumbers: string[];
}

/** A manifest and the tracking numbers (LDV) it holds. */
export interface ManifestSent {
  manifest: Manifest;
  trackingNumbers: string[];
}

/**
 * What the store keeps of a platform Manifest (spec: Resources > Manifest):
 * ids, carrier, contract code when given, totals (EUR) and the base64 PDF
 * when the answer carried one.
 */
export function manifestInput(m: Manifest): ManifestInput {
  return {
    platformId: m.id,
    carrierCode: m.carrier.code,
    carrierName: m.carrier.name,
    ...(m.contractCode ? { contractCode: m.contractCode } : {}),
    totalShipments: m.totalShipments,
    totalCost: m.totalCost,
    createdAt: m.createdAt,
    ...(m.pdf ? { pdf: m.pdf } : {}),
  };
}

/** Dependencies of {@link createManifestExecutor}. */
export interface ManifestExecutorDeps<O> {
  store: Store;
  client: PlatformClient;
  after: (row: OutboxRecord<ManifestCreatePayload>, stored: ManifestRecord[]) => Promise<O>;
}

/** Executor of `manifest.create` rows. */
export function createManifestExecutor<O>(deps: ManifestExecutorDeps<O>): OutboxExecutor<ManifestCreatePayload, ManifestSent[], ManifestRecord[], O> {
  const { store, client } = deps;
  return {
    async send(row) {
      const wanted = row.payload.trackingNumbers;
      const retry = row.attempts > 1;
      let created: Manifest[] = [];
      try {
        created = await client.createManifests({ trackingNumbers: wanted });
      } catch (e) {
        // 404 on a retry: everything is already in a manifest (our lost answer).
        if (!(retry && e instanceof PlatformError && e.status === 404)) throw e;
      }
      const out: ManifestSent[] = [];
      const covered = new Set<string>();
      const needLookup: string[] = [];
      for (const m of created) {
        if (m.trackingNumbers) {
          out.push({ manifest: m, trackingNumbers: m.trackingNumbers });
          m.trackingNumbers.forEach((t) => covered.add(t));
        }
      }
      const unmapped = created.filter((m) => !m.trackingNumbers);
      // Without `trackingNumbers` in the answer (not in the spec's Manifest) or after a
      // lost answer, ask each remaining shipment which manifest it entered.
      if (unmapped.length || retry) needLookup.push(...wanted.filter((t) => !covered.has(t)));
      const byId = new Map<number, ManifestSent>(out.map((o) => [o.manifest.id, o]));
      for (const m of unmapped) byId.set(m.id, { manifest: m, trackingNumbers: [] });
      for (const trackingNumber of needLookup) {
        let manifestId: number | null | undefined;
        try {
          manifestId = (await client.getShipment(trackingNumber)).manifestId;
        } catch (e) {
          if (e instanceof PlatformError && e.status === 404) continue;
          throw e;
        }
        if (manifestId === null || manifestId === undefined) continue;
        let entry = byId.get(manifestId);
        if (!entry) {
          entry = { manifest: await client.getManifest(manifestId, true), trackingNumbers: [] };
          byId.set(manifestId, entry);
        }
        entry.trackingNumbers.push(trackingNumber);
      }
      return [...byId.values()];
    },
    commit(_row, sent) {
      const stored: ManifestRecord[] = [];
      for (const { manifest: m, trackingNumbers } of sent) {
        const rec = store.manifests.save(manifestInput(m));
        store.shipments.assignManifest(trackingNumbers, rec.id);
        stored.push(rec);
      }
      return { local: stored, result: { manifestIds: sent.map((s) => s.manifest.id) } };
    },
    after: (row, stored) => deps.after(row, stored),
  };
}
