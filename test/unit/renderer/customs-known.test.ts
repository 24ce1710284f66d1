/** Customs from what is known (issue 24 item 6): the plan fills blank line fields only, and the focus list names what is still missing. */
import { describe, expect, it } from 'vitest';
import { applyPlannedCommodities, emptyCommodity, emptyCustoms, missingCustomsFields, type CustomsDraft } from '../../../renderer/src/lib/shipFormCustoms';

const draft = (): CustomsDraft => ({
  ...emptyCustoms('EUR'),
  commodities: [
    { ...emptyCommodity(), sku: 'CIOC', description: 'Cioccolato', quantity: '2', unitValue: '8' },
    { ...emptyCommodity(), sku: 'TAZ', description: '', quantity: '1', unitValue: '12', originCountry: 'DE' },
    { ...emptyCommodity(), sku: '', description: 'Regalo', quantity: '1', unitValue: '5' },
  ],
});

describe('customs from what is known', () => {
  it('fills blanks from the plan by SKU (by place without one) and never replaces what was typed', () => {
    const filled = applyPlannedCommodities(draft(), [
      { sku: 'TAZ', description: 'Tazza in ceramica', weight: { value: 0.35 }, countryOfManufacture: 'IT', harmonizedCode: '691200' },
      { sku: 'CIOC', description: 'Cioccolato fondente', weight: { value: 1 }, countryOfManufacture: '', harmonizedCode: '180632' },
      { sku: null, description: 'Regalo', weight: { value: 0 }, countryOfManufacture: 'IT', harmonizedCode: null },
    ]);
    expect(filled.commodities.map((l) => [l.description, l.weight, l.originCountry, l.hsCode])).toEqual([
      ['Cioccolato', '1', '', '180632'],
      ['Tazza in ceramica', '0.35', 'DE', '691200'],
      // A weight the plan does not know (0) stays blank for the packer.
      ['Regalo', '', 'IT', ''],
    ]);
    expect(missingCustomsFields(filled)).toEqual(['customs-0-originCountry', 'customs-2-weight', 'customs-2-hsCode']);
  });

  it('lists each line’s missing fields in screen order, and nothing for a complete declaration', () => {
    expect(missingCustomsFields(draft()).slice(0, 4)).toEqual(['customs-0-weight', 'customs-0-originCountry', 'customs-0-hsCode', 'customs-1-description']);
    const complete = { ...draft(), commodities: draft().commodities.map((l) => ({ ...l, description: 'x', weight: '1', originCountry: 'IT', hsCode: '691200' })) };
    expect(missingCustomsFields(complete)).toEqual([]);
  });
});
