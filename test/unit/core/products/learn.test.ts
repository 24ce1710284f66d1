/**
 * Unit weights learnt from plain shipments (issue 24 item 3): which SKU a
 * shipment tells the weight of, and that weight (parcels minus tare minus the
 * other lines' known weights, per piece); and, against a store, that an
 * unknown weight is filled, a changed one proposed, a scale's few grams ignored.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { learnWeightFromShipment, unitWeightCandidate } from '../../../../electron/core/products/learn';
import { openStore, type Store } from '../../../../electron/core/store';
import type { StationOrder } from '../../../../shared/domain/order';

const known = new Map([
  ['TAZ', 0.35],
  ['OLIO', 1.2],
]);

describe('unitWeightCandidate', () => {
  it('takes an order of one SKU: parcels minus tare, per piece (known or not)', () => {
    expect(unitWeightCandidate([{ sku: 'VASO', quantity: 2 }], known, [{ weightKg: 4.3, tareKg: 0.3 }])).toEqual({ sku: 'VASO', unitWeightKg: 2 });
    expect(unitWeightCandidate([{ sku: 'TAZ', quantity: 1 }, { sku: 'TAZ', quantity: 2 }], known, [{ weightKg: 1.5, tareKg: 0.3 }])).toEqual({ sku: 'TAZ', unitWeightKg: 0.4 });
    expect(unitWeightCandidate([{ sku: 'VASO', quantity: 3 }], known, [{ weightKg: 3.3, tareKg: 0.3 }, { weightKg: 3.3, tareKg: 0.3 }])).toEqual({ sku: 'VASO', unitWeightKg: 2 });
  });

  it('takes the one SKU without a weight when every other line’s weight is known', () => {
    // 0.3 tare + 2 × 0.35 + 1.2 = 2.2 known; 5.2 - 2.2 = 3 kg for 2 VASO.
    const lines = [{ sku: 'TAZ', quantity: 2 }, { sku: 'OLIO', quantity: 1 }, { sku: 'VASO', quantity: 2 }];
    expect(unitWeightCandidate(lines, known, [{ weightKg: 5.2, tareKg: 0.3 }])).toEqual({ sku: 'VASO', unitWeightKg: 1.5 });
  });

  it('tells nothing when two SKUs lack a weight, when every SKU is known, for a line without SKU, or for 0 g or less', () => {
    expect(unitWeightCandidate([{ sku: 'VASO', quantity: 1 }, { sku: 'PIATTO', quantity: 1 }], known, [{ weightKg: 3, tareKg: 0 }])).toBeNull();
    expect(unitWeightCandidate([{ sku: 'TAZ', quantity: 1 }, { sku: 'OLIO', quantity: 1 }], known, [{ weightKg: 3, tareKg: 0 }])).toBeNull();
    expect(unitWeightCandidate([{ sku: 'VASO', quantity: 1 }, { quantity: 1 }], known, [{ weightKg: 3, tareKg: 0 }])).toBeNull();
    expect(unitWeightCandidate([{ sku: 'VASO', quantity: 1 }], known, [{ weightKg: 0.3, tareKg: 0.3 }])).toBeNull();
    expect(unitWeightCandidate([{ sku: 'VASO', quantity: 1 }], known, [])).toBeNull();
  });
});

describe('learnWeightFromShipment', () => {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'learn-'));
    store = openStore(path.join(dir, 'station.db'));
  });
  afterEach(() => {
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const orderOf = (items: StationOrder['items']) => ({ id: 1, orderNumber: '#1', items }) as unknown as StationOrder;

  it('fills an unknown weight, proposes a changed one (the data kept), and lets a few grams pass', () => {
    const vaso = orderOf([{ sku: 'VASO', name: 'Vaso', quantity: 2, unitPrice: 10 }]);
    expect(learnWeightFromShipment(store, vaso, [{ weightKg: 4.3, tareKg: 0.3 }], 'shipment #1')).toEqual({ sku: 'VASO', unitWeightKg: 2 });
    expect(store.products.getMany(['VASO'])[0]?.unitWeightKg).toBe(2);
    expect(store.products.suggestions()).toEqual([]);
    // 4.32 kg: 2.01 per piece, within the scale's noise.
    expect(learnWeightFromShipment(store, vaso, [{ weightKg: 4.32, tareKg: 0.3 }], 'shipment #2')).toBeNull();
    expect(store.products.suggestions()).toEqual([]);
    expect(learnWeightFromShipment(store, vaso, [{ weightKg: 5.3, tareKg: 0.3 }], 'shipment #3')).toEqual({ sku: 'VASO', unitWeightKg: 2.5 });
    expect(store.products.getMany(['VASO'])[0]?.unitWeightKg).toBe(2);
    expect(store.products.suggestions()).toEqual([expect.objectContaining({ sku: 'VASO', field: 'unitWeightKg', current: '2', proposed: '2.5', source: 'shipment #3' })]);
  });
});
