/** The HS code field's suggestions from the station's own product data (electron/core/shipping/customs.ts, table `products`). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { productSuggestions } from '../../../../electron/core/shipping/customs';
import { tempStore } from '../store/helpers';

let t: ReturnType<typeof tempStore>;
beforeEach(() => {
  t = tempStore();
  const p = (sku: string, description: string, hsCode: string | null) => ({ sku, description, hsCode, originCountry: 'IT', unitWeightKg: 0.3 });
  t.store.products.remember([p('MUG-RED', 'Tazza rossa in ceramica', '691200'), p('VASE-1', 'Vaso dipinto a mano', '691390')]);
  t.clock.advance(60_000);
  t.store.products.remember([p('MUG-BLUE', 'Tazze blu (set da 2)', '691200'), p('TEE-1', 'Maglietta cotone bio', '610910'), p('NOCODE', 'Tazza senza codice', null)]);
});
afterEach(() => t.cleanup());

describe('product suggestions', () => {
  it('suggests the code a similar product was declared with, singular or plural, once per code, newest first', () => {
    expect(productSuggestions(t.store, 'tazza')).toEqual([{ code: '691200', description: 'Tazze blu (set da 2)', descriptionEn: null, sku: 'MUG-BLUE' }]);
    expect(productSuggestions(t.store, 'vasi dipinti').map((s) => s.sku)).toEqual(['VASE-1']);
    expect(productSuggestions(t.store, 'magliette di cotone').map((s) => s.code)).toEqual(['610910']);
  });

  it('needs every word of the query, and matches codes by their digits', () => {
    expect(productSuggestions(t.store, 'tazza verde')).toEqual([]);
    expect(productSuggestions(t.store, '6913').map((s) => s.sku)).toEqual(['VASE-1']);
    expect(productSuggestions(t.store, '69').map((s) => s.code)).toEqual(['691200', '691390']);
  });
});
