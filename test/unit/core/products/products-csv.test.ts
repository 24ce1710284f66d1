/** Product CSV (issue 24 item 3): `,` or `;`, decimal comma, empty = not known; a bad row refused naming row and column; export reads back. */
import { describe, expect, it } from 'vitest';
import { parseProductsCsv, productsCsvText } from '../../../../electron/core/products/csv';
import { StationError } from '../../../../shared/contract/errors';

function refusal(content: string): StationError {
  try {
    parseProductsCsv(content);
  } catch (e) {
    if (e instanceof StationError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('product CSV', () => {
  it('reads comma-separated rows with quoted decimal commas and empty cells', () => {
    const csv = 'sku,weightKg,lengthCm,widthCm,heightCm,hsCode,originCountry,description\r\nTAZ-1,0.35,10,10,12,6912.00,it,Tazza in ceramica\r\nOLIO,"1,2",,,,,,\r\n\r\n';
    expect(parseProductsCsv(csv)).toEqual([
      { sku: 'TAZ-1', unitWeightKg: 0.35, lengthCm: 10, widthCm: 10, heightCm: 12, hsCode: '691200', originCountry: 'IT', description: 'Tazza in ceramica', shipsAlone: false },
      { sku: 'OLIO', unitWeightKg: 1.2, lengthCm: null, widthCm: null, heightCm: null, hsCode: null, originCountry: null, description: '', shipsAlone: false },
    ]);
  });

  it('reads semicolon-separated files (an Italian spreadsheet), columns in any order, BOM allowed', () => {
    const csv = '\uFEFFdescription;sku;weightKg\nCaffè; CAF ;0,25\n';
    expect(parseProductsCsv(csv)).toEqual([{ sku: 'CAF', unitWeightKg: 0.25, lengthCm: null, widthCm: null, heightCm: null, hsCode: null, originCountry: null, description: 'Caffè', shipsAlone: false }]);
  });

  it('reads shipsAlone (issue 37): yes/no, sì, 1/0, true/false, empty for no; anything else is refused', () => {
    const csv = 'sku;shipsAlone\nCAR-GL;yes\nCAR-2;Sì\nCUP;\nBOWL;no\nPLATE;0\nJUG;TRUE\n';
    expect(parseProductsCsv(csv).map((p) => [p.sku, p.shipsAlone])).toEqual([
      ['CAR-GL', true],
      ['CAR-2', true],
      ['CUP', false],
      ['BOWL', false],
      ['PLATE', false],
      ['JUG', true],
    ]);
    expect(refusal('sku,shipsAlone\nA,maybe\n').details).toEqual({ 'rows.2.shipsAlone': ['Ships alone must be yes or no (or empty)'] });
  });

  it('refuses a bad cell naming its row (header = 1) and column', () => {
    const bad = refusal('sku;weightKg;originCountry\nA;0,1;IT\nB;abc;IT\n');
    expect(bad.code).toBe('invalid_input');
    expect(bad.message).toContain('row 3, column weightKg');
    expect(bad.details).toEqual({ 'rows.3.weightKg': ['"abc" is not a number of kg'] });
    expect(refusal('sku,hsCode\nA,12\n').details).toHaveProperty(['rows.2.hsCode']);
    expect(refusal('sku,originCountry\nA,ITA\n').details).toHaveProperty(['rows.2.originCountry']);
    expect(refusal('sku,weightKg\nA,0\n').details).toHaveProperty(['rows.2.weightKg']);
    expect(refusal('sku,weightKg\n,1\n').details).toHaveProperty(['rows.2.sku']);
    expect(refusal('sku\nA\nA\n').message).toContain('already on row 2');
    expect(refusal('sku,weight\nA,1\n').details).toHaveProperty(['header']);
    expect(refusal('weightKg\n1\n').details).toHaveProperty(['header']);
    const broken = refusal('sku,description\nA,"secret text never quoted\n');
    expect(broken.details).toEqual({ content: ['Not CSV'] });
    expect(broken.message).not.toContain('secret');
  });

  it('exports the standard header and reads back what it wrote', () => {
    const products = [
      { sku: 'A;1', unitWeightKg: 0.5, lengthCm: 1, widthCm: 2, heightCm: 3, hsCode: '610910', originCountry: 'PT', description: 'T-shirt, "cotone"', shipsAlone: false, updatedAt: 't' },
      { sku: 'B', unitWeightKg: null, lengthCm: null, widthCm: null, heightCm: null, hsCode: null, originCountry: null, description: '', shipsAlone: true, updatedAt: 't' },
    ];
    const text = productsCsvText(products);
    expect(text.split('\r\n')[0]).toBe('sku,weightKg,lengthCm,widthCm,heightCm,hsCode,originCountry,description,shipsAlone');
    expect(text.split('\r\n')[2]).toBe('B,,,,,,,,yes');
    expect(parseProductsCsv(text)).toEqual(products.map(({ updatedAt: _u, ...p }) => p));
  });
});
