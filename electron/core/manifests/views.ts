/** The contract's manifest views (shared/contract/views.ts ManifestView) from store records. */
import { z } from 'zod';
import type { ManifestView } from '../../../shared/contract/views';
import type { ManifestRecord, Store } from '../store';

/**
 * The contract's human name for a manifest, from the platform JSON of one of
 * its shipments (`carrier.contractName`); null when none is known. The
 * contract code may be an encrypted reseller code: it is never shown.
 */
export function manifestContractName(store: Store, m: ManifestRecord): string | null {
  // A few shipments tell it (a manifest holds hundreds: End of day must not read them all);
  // only the name is read of each (not the whole shipment checked against its schema).
  for (const rec of store.shipments.listByManifest(m.id, 5)) {
    const p = ContractNameOfShipment.safeParse(rec.platform);
    if (p.success) return p.data.carrier.contractName;
  }
  return null;
}

/** The part of a stored shipment's platform JSON that names its contract. */
const ContractNameOfShipment = z.object({ carrier: z.object({ contractName: z.string().min(1) }) });

/**
 * {@link manifestContractName} for a list of manifests: manifests of one
 * contract share its name, so each contract code is looked up once (End of
 * day lists a hundred manifests of two or three contracts). When the first
 * manifest of a contract does not tell its name, up to two more are asked.
 */
export function manifestContractNames(store: Store, manifests: readonly ManifestRecord[]): Array<string | null> {
  const known = new Map<string, string>();
  const asked = new Map<string, number>();
  return manifests.map((m) => {
    const code = m.contractCode ?? '';
    const hit = known.get(code);
    if (hit !== undefined) return hit;
    const tries = asked.get(code) ?? 0;
    if (tries >= 3) return null;
    asked.set(code, tries + 1);
    const name = manifestContractName(store, m);
    if (name !== null) known.set(code, name);
    return name;
  });
}

/** Manifest view; `id` is the platform's manifest id (the number on the carrier's paper). `contractName` from {@link manifestContractName}. */
export function manifestView(m: ManifestRecord, contractName: string | null = null): ManifestView {
  return {
    id: m.platformId,
    carrier: { code: m.carrierCode, name: m.carrierName ?? m.carrierCode },
    contractCode: m.contractCode,
    contractName,
    totalShipments: m.totalShipments,
    totalCost: m.totalCost,
    createdAt: m.createdAt,
    hasPdf: m.hasPdf,
  };
}
