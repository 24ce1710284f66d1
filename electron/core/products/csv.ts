/**
 * Product data as CSV (issue 24 item 3): the columns
 * `sku,weightKg,lengthCm,widthCm,heightCm,hsCode,originCountry,description,shipsAlone`
 * (shared/contract/products.ts), in any order, with a header row; `,` or `;`
 * between fields (the header's separator decides); numbers with a decimal
 * point or comma (`0,35` as an Italian spreadsheet writes it); an empty cell
 * is "not known". `shipsAlone` (issue 37: the product needs a parcel of its
 * own) is `yes`/`no` (also `1`/`0`, `true`/`false`, `sì`/`si`), empty for no.
 * Read with csv-parse, as the order import.
 */
import { parse } from 'csv-parse/sync';
import { PRODUCT_CSV_COLUMNS } from '../../../shared/contract/products';
import { StationError } from '../../../shared/contract/errors';
import type { ProductInput, ProductRecord } from '../store';

/** Most product rows one file may hold. */
const PRODUCTS_CSV_MAX_ROWS = 100_000;

type Column = (typeof PRODUCT_CSV_COLUMNS)[number];

/** A refused cell: row as a spreadsheet numbers it (header = row 1), and its column. */
function cellError(row: number, column: string, message: string): StationError {
  return new StationError('invalid_input', `Product file refused: row ${row}, column ${column}: ${message}. Nothing was imported.`, { [`rows.${row}.${column}`]: [message] });
}

/** A decimal number as typed (`0.35`, `0,35`, ` 12 `), or null for an empty cell; NaN when not a number. */
function decimal(text: string): number | null {
  const t = text.trim();
  if (t === '') return null;
  if (!/^\d+([.,]\d+)?$/.test(t)) return Number.NaN;
  return Number(t.replace(',', '.'));
}

/**
 * Reads a product file.
 * @param content the file's text (a BOM is allowed)
 * @returns one {@link ProductInput} per data row, in file order (blank lines skipped)
 * @throws StationError `invalid_input`: a missing `sku` column or an unknown header (details `header`),
 *   a file that is not CSV (details `content`), or the first bad cell, naming its row (header = 1)
 *   and column (details `rows.<row>.<column>`), or a SKU given twice.
 */
export function parseProductsCsv(content: string): ProductInput[] {
  const text = content.replace(/^\uFEFF/, '');
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const delimiter = firstLine.includes(';') ? ';' : ',';
  let records: string[][];
  try {
    records = parse(text, { delimiter, relax_column_count: true, skip_empty_lines: true, trim: false }) as string[][];
  } catch (e) {
    // csv-parse names the line; its message is kept short and never quotes the file.
    const line = typeof (e as { lines?: unknown }).lines === 'number' ? ` (line ${(e as { lines: number }).lines})` : '';
    throw new StationError('invalid_input', `Product file is not readable CSV${line}: check the quotes. Nothing was imported.`, { content: ['Not CSV'] });
  }
  const header = (records[0] ?? []).map((h) => h.trim());
  const index = new Map<Column, number>();
  header.forEach((h, i) => {
    const col = PRODUCT_CSV_COLUMNS.find((c) => c.toLowerCase() === h.toLowerCase());
    if (!col) throw new StationError('invalid_input', `Product file refused: unknown column "${h}" (columns: ${PRODUCT_CSV_COLUMNS.join(',')})`, { header: [`Unknown column ${h}`] });
    index.set(col, i);
  });
  if (!index.has('sku')) throw new StationError('invalid_input', `Product file refused: the header has no sku column (columns: ${PRODUCT_CSV_COLUMNS.join(',')})`, { header: ['sku column missing'] });
  if (records.length - 1 > PRODUCTS_CSV_MAX_ROWS) throw new StationError('invalid_input', `Product file has more than ${PRODUCTS_CSV_MAX_ROWS} rows`, { content: ['Too many rows'] });
  const seen = new Map<string, number>();
  const out: ProductInput[] = [];
  records.slice(1).forEach((rec, i) => {
    const row = i + 2;
    if (rec.every((c) => c.trim() === '')) return;
    const cell = (c: Column): string => {
      const at = index.get(c);
      return at === undefined ? '' : (rec[at] ?? '');
    };
    const sku = cell('sku').trim();
    if (sku === '') throw cellError(row, 'sku', 'SKU is required');
    if (sku.length > 100) throw cellError(row, 'sku', 'SKU is at most 100 characters');
    const earlier = seen.get(sku);
    if (earlier !== undefined) throw cellError(row, 'sku', `SKU ${sku} is already on row ${earlier}`);
    seen.set(sku, row);
    const num = (c: Column, unit: string, max: number): number | null => {
      const v = decimal(cell(c));
      if (v === null) return null;
      if (Number.isNaN(v)) throw cellError(row, c, `"${cell(c).trim()}" is not a number of ${unit}`);
      if (!(v > 0) || v > max) throw cellError(row, c, `must be above 0 and at most ${max} ${unit}`);
      return v;
    };
    const hs = cell('hsCode').replace(/[\s.]/g, '');
    if (hs !== '' && !/^\d{6,10}$/.test(hs)) throw cellError(row, 'hsCode', 'HS code must be 6 to 10 digits');
    const origin = cell('originCountry').trim().toUpperCase();
    if (origin !== '' && !/^[A-Z]{2}$/.test(origin)) throw cellError(row, 'originCountry', 'Country of origin must be 2 letters (ISO 3166-1, e.g. IT)');
    const alone = cell('shipsAlone').trim().toLowerCase();
    if (!['', 'yes', 'no', '1', '0', 'true', 'false', 'sì', 'si'].includes(alone)) throw cellError(row, 'shipsAlone', 'Ships alone must be yes or no (or empty)');
    const description = cell('description').trim();
    if (description.length > 255) throw cellError(row, 'description', 'Description is at most 255 characters');
    out.push({
      sku,
      unitWeightKg: num('weightKg', 'kg', 1000),
      lengthCm: num('lengthCm', 'cm', 500),
      widthCm: num('widthCm', 'cm', 500),
      heightCm: num('heightCm', 'cm', 500),
      hsCode: hs === '' ? null : hs,
      originCountry: origin === '' ? null : origin,
      description,
      shipsAlone: ['yes', '1', 'true', 'sì', 'si'].includes(alone),
    });
  });
  return out;
}

/** One CSV field: quoted when it holds a separator, a quote or a line break. */
function field(v: string | number | null): string {
  const s = v === null ? '' : String(v);
  return /[",;\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The products as a CSV file with the standard header, `,` separated, decimal points, CRLF line ends. */
export function productsCsvText(products: readonly ProductRecord[]): string {
  const lines = [PRODUCT_CSV_COLUMNS.join(',')];
  for (const p of products) {
    lines.push([p.sku, p.unitWeightKg, p.lengthCm, p.widthCm, p.heightCm, p.hsCode, p.originCountry, p.description, p.shipsAlone ? 'yes' : ''].map(field).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
