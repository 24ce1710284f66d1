/**
 * The columns of a Shopify orders export: which are required, which are read
 * when present, the field separator of the header row, and reading one cell.
 */
import { ShopifyImportError } from './csv-errors';

/** Columns without which the file is refused. `Shipping Address1` may be replaced by `Shipping Street`. */
const REQUIRED_COLUMNS = [
  'Name',
  'Lineitem quantity',
  'Lineitem name',
  'Lineitem price',
  'Shipping Name',
  'Shipping Address1',
  'Shipping City',
  'Shipping Zip',
  'Shipping Country',
] as const;

/** Optional columns the importer reads when present. */
const OPTIONAL_COLUMNS = [
  'Email',
  'Fulfillment Status',
  'Currency',
  'Total',
  'Created at',
  'Lineitem sku',
  'Lineitem requires shipping',
  'Shipping Street',
  'Shipping Address2',
  'Shipping Company',
  'Shipping Province',
  'Shipping Phone',
  'Phone',
  'Notes',
  'Cancelled at',
  'Id',
  'Financial Status',
  'Shipping Method',
  'Lineitem fulfillment status',
] as const;

/** A column the importer knows. */
export type ColumnName = (typeof REQUIRED_COLUMNS)[number] | (typeof OPTIONAL_COLUMNS)[number];
/** Column name -> field index (-1 when the column is absent). */
export type Columns = Record<ColumnName, number>;

/** Field separators the importer accepts. */
export type Delimiter = ',' | ';' | '\t';

/** One CSV record of the file. */
export interface Row {
  fields: string[];
  /** 1-based physical line where the row starts. */
  line: number;
  /** 1-based row as a spreadsheet numbers it (header = 1; a multi-line note is one row). */
  row: number;
}

/**
 * Maps the header row to column indexes.
 * @throws ShopifyImportError `missing_columns`, one issue per missing required column.
 */
export function checkHeader(header: Row): Columns {
  const index = new Map<string, number>();
  header.fields.forEach((h, i) => {
    const name = h.trim();
    if (!index.has(name)) index.set(name, i);
  });
  const cols = {} as Columns;
  for (const c of [...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS]) cols[c] = index.get(c) ?? -1;
  // Older exports and some apps give only the combined "Shipping Street".
  const missing = REQUIRED_COLUMNS.filter((c) => cols[c] < 0 && !(c === 'Shipping Address1' && cols['Shipping Street'] >= 0));
  if (missing.length > 0) {
    throw new ShopifyImportError(
      'missing_columns',
      `This is not a Shopify orders export: column${missing.length > 1 ? 's' : ''} ${missing.map((m) => `"${m}"`).join(', ')} missing`,
      missing.map((m) => ({ line: header.line, column: m, message: `Required column "${m}" is missing` })),
    );
  }
  return cols;
}

/** The row's field at `index`, '' when the column is absent or the row is short. */
export function cell(row: Row, index: number): string {
  return index < 0 ? '' : (row.fields[index] ?? '');
}

/**
 * The separator of the header row (the file's first line, without its
 * break): the one of `,` `;` tab that splits it into the most known Shopify
 * columns (ties: the most fields).
 */
export function detectDelimiter(headerLine: string): Delimiter {
  const known = new Set<string>([...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS]);
  let best: Delimiter = ',';
  let bestScore = -1;
  for (const d of [',', ';', '\t'] as const) {
    const fields = splitOutsideQuotes(headerLine, d);
    const score = fields.filter((f) => known.has(f.trim().replace(/^"|"$/g, ''))).length * 1000 + fields.length;
    if (score > bestScore) {
      bestScore = score;
      best = d;
    }
  }
  return best;
}

function splitOutsideQuotes(line: string, d: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    if (ch === d && !quoted) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

/** First CSV field of a line, unquoted (used to find which order a broken row belongs to). */
export function leadingField(text: string, delimiter: Delimiter): string | undefined {
  const sep = delimiter === '\t' ? '\\t' : delimiter;
  const m = new RegExp(`^\\s*(?:"((?:[^"]|"")*)"|([^${sep}"]*))`).exec(text);
  const v = (m?.[1]?.replace(/""/g, '"') ?? m?.[2] ?? '').trim();
  return v === '' ? undefined : v;
}
