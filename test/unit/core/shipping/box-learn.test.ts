/**
 * Boxes learnt from the bench (issue 37 item 3), against a store: the key of
 * a set of items (SKU × quantity, SKUs sorted); a box used instead of the
 * station's choice becomes a suggestion, accepted once, then proposed for
 * that set only; a rejected one is dropped; the same box as the station's
 * choice, or one already accepted, teaches nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { itemsKey, learnBoxFromShipment, learntBoxes, learntBoxFor, resolveLearntBox } from '../../../../electron/core/shipping/box-learn';
import { openStore, type Store } from '../../../../electron/core/store';
import type { StationOrder } from '../../../../shared/domain/order';

const orderOf = (items: Array<{ sku?: string; quantity: number; fulfilled?: boolean }>) =>
  ({ id: 1, orderNumber: '#1', items: items.map((i) => ({ name: i.sku ?? 'x', unitPrice: 10, ...i })) }) as unknown as StationOrder;

describe('itemsKey', () => {
  it('adds the quantities of a SKU, sorts the SKUs, and tells nothing for a line without SKU', () => {
    expect(itemsKey([{ sku: 'TE-1L', quantity: 1 }, { sku: 'CUP', quantity: 1 }, { sku: 'CUP', quantity: 1 }])).toBe('CUP×2, TE-1L×1');
    expect(itemsKey([{ sku: 'CUP', quantity: 2 }, { sku: null, quantity: 1 }])).toBeNull();
    expect(itemsKey([])).toBeNull();
  });
});

describe('learnBoxFromShipment', () => {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'box-learn-'));
    store = openStore(path.join(dir, 'station.db'));
  });
  afterEach(() => {
    store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const teaSet = orderOf([{ sku: 'CUP', quantity: 2 }, { sku: 'TE-1L', quantity: 1 }]);

  it('proposes the changed box, uses it once accepted, for that set of items only', () => {
    expect(learnBoxFromShipment(store, teaSet, 'Large', 'Medium', 'shipment #1')).toBe(true);
    expect(learntBoxes(store)).toEqual([{ key: 'CUP×2, TE-1L×1', items: [{ sku: 'CUP', quantity: 2 }, { sku: 'TE-1L', quantity: 1 }], box: null, proposed: 'Large', source: 'shipment #1', learntAt: expect.any(String) }]);
    // Not used before the packer accepts it.
    expect(learntBoxFor(store, teaSet)).toBeNull();
    expect(resolveLearntBox(store, 'CUP×2, TE-1L×1', true)).toMatchObject({ box: 'Large', proposed: null });
    expect(learntBoxFor(store, teaSet)).toBe('Large');
    // The same set in another order of lines is the same set; another quantity is another set.
    expect(learntBoxFor(store, orderOf([{ sku: 'TE-1L', quantity: 1 }, { sku: 'CUP', quantity: 2 }]))).toBe('Large');
    expect(learntBoxFor(store, orderOf([{ sku: 'CUP', quantity: 3 }, { sku: 'TE-1L', quantity: 1 }]))).toBeNull();
    // The accepted box used again teaches nothing.
    expect(learnBoxFromShipment(store, teaSet, 'large', 'Medium', 'shipment #2')).toBe(false);
  });

  it('teaches nothing when the packer kept the station’s box or a line has no SKU', () => {
    expect(learnBoxFromShipment(store, teaSet, 'Medium', 'medium', 'shipment #1')).toBe(false);
    expect(learnBoxFromShipment(store, orderOf([{ sku: 'CUP', quantity: 1 }, { quantity: 1 }]), 'Large', 'Small', 'shipment #2')).toBe(false);
    expect(learntBoxes(store)).toEqual([]);
  });

  it('a rejected box is dropped; a later change proposes again while the accepted box stays in use', () => {
    learnBoxFromShipment(store, teaSet, 'Large', 'Medium', 'shipment #1');
    expect(resolveLearntBox(store, 'CUP×2, TE-1L×1', false)).toMatchObject({ box: null, proposed: null });
    expect(learntBoxes(store)).toEqual([]);
    expect(resolveLearntBox(store, 'CUP×2, TE-1L×1', true)).toBeNull();

    learnBoxFromShipment(store, teaSet, 'Large', 'Medium', 'shipment #2');
    resolveLearntBox(store, 'CUP×2, TE-1L×1', true);
    expect(learnBoxFromShipment(store, teaSet, 'Huge', 'Large', 'shipment #3')).toBe(true);
    expect(learntBoxFor(store, teaSet)).toBe('Large');
    expect(learntBoxes(store)[0]).toMatchObject({ box: 'Large', proposed: 'Huge', source: 'shipment #3' });
  });
});
