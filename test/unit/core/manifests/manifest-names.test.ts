/** End of day names each manifest's contract from its shipments, asking once per contract (issue 27: ≤ 50 ms with a year of manifests). */
import { describe, expect, it } from 'vitest';
import { manifestContractNames } from '../../../../electron/core/manifests/views';
import type { ManifestRecord, ShipmentRecord, Store } from '../../../../electron/core/store';

const manifest = (id: number, contractCode: string | null): ManifestRecord =>
  ({ id, platformId: 100 + id, carrierCode: 'BRT', carrierName: 'BRT', contractCode, totalShipments: 3, totalCost: 12, createdAt: 't', storedAt: 't', hasPdf: false }) as ManifestRecord;

/** A store whose shipments answer by manifest id; counts the lookups. */
function storeWith(platformByManifest: Record<number, unknown[]>) {
  const asked: number[] = [];
  const store = {
    shipments: {
      listByManifest: (manifestId: number) => {
        asked.push(manifestId);
        return (platformByManifest[manifestId] ?? []).map((platform) => ({ platform }) as ShipmentRecord);
      },
    },
  } as unknown as Store;
  return { store, asked };
}

describe('manifestContractNames', () => {
  it('looks each contract up once, from the shipments of its first manifest that names it', () => {
    const named = { carrier: { code: 'BRT', name: 'BRT', contractName: 'BRT Express' } };
    const { store, asked } = storeWith({ 1: [named], 2: [named], 3: [{ carrier: { contractName: 'GLS Business' } }], 4: [{ carrier: {} }] });
    const names = manifestContractNames(store, [manifest(1, 'A'), manifest(2, 'A'), manifest(3, 'B'), manifest(5, 'A'), manifest(4, 'C')]);
    expect(names).toEqual(['BRT Express', 'BRT Express', 'GLS Business', 'BRT Express', null]);
    expect(asked).toEqual([1, 3, 4]);
  });

  it('gives up on a contract after three manifests that do not name it (no name is shown, nothing is read for ever)', () => {
    const { store, asked } = storeWith({});
    const names = manifestContractNames(store, [1, 2, 3, 4, 5].map((i) => manifest(i, null)));
    expect(names).toEqual([null, null, null, null, null]);
    expect(asked).toEqual([1, 2, 3]);
  });
});
