/**
 * Import of a Shopify admin "Export orders" CSV into the store.
 *
 * The format (Shopify admin > Orders > Export, "CSV for Excel, Numbers, or
 * other spreadsheet programs"): a header row, then one row per line item; an
 * order spans consecutive rows with the same `Name` (#1001), and only its
 * first row carries the order-level fields (e-mail, totals, addresses,
 * notes). Fields may be quoted and hold commas and line breaks; the file may
 * start with a UTF-8 BOM; zip codes may carry a leading apostrophe (`'00184`)
 * or have lost their leading zeros (`184`), which is repaired for Italy;
 * `Shipping Province` is a code (RM, MI) and `Shipping Country` ISO 3166-1
 * alpha-2.
 *
 * Rules: a bad row is reported with its physical line and column, and its
 * whole order is left out (a partial order would be packed incomplete); every
 * good order is kept. Importing the same file again changes nothing
 * (idempotent by order number, see `OrdersRepo.upsertImported`). A file
 * without a required column is refused as a whole.
 */
import { createHash } from 'node:crypto';
import { CsvError, parse } from 'csv-parse/sync';
import {
  normalizePostalCode,
  ORDER_LIMITS,
  recipientProblems,
  type ImportIssue,
  type ImportReport,
  type OrderItem,
  type OrderRecipient,
  type OrderStatus,
} from '../../../shared/domain/order';
import type { OrderDraft, Store } from '../store';

/** Why a whole file was refused (nothing imported). */
export type ShopifyImportErrorCode = 'empty_file' | 'not_utf8' | 'missing_columns' | 'unreadable_header';

/**
 * A file the importer refuses as a whole. `issues` uses the report's shape;
 * for `missing_columns` there is one issue per missing column, naming it.
 */
export class ShopifyImportError extends Error {
  constructor(
    public readonly code: ShopifyImportErrorCode,
    message: string,
    public readonly issues: ImportIssue[],
  ) {
    super(message);
    this.name = 'ShopifyImportError';
  }
}

/** Options of {@link importShopifyCsv} and {@link parseShopifyCsv}. */
export interface ShopifyImportOptions {
  /** Clock used when the file has no `Created at` column (default: system clock). */
  now?: () => Date;
  /** Stop listing errors after this many (one more issue says how many were left out). Default 500. */
  maxErrors?: number;
}

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

/** One order read from the file, ready for the store. `line`: where its first row starts. */
interface ParsedShopifyOrder {
  line: number;
  order: OrderDraft;
  /** sha256 of the order's content: equal hashes mean an unchanged re-import. */
  hash: string;
}

/** Result of {@link parseShopifyCsv}: good orders, problems, and the counts that need no store. */
export interface ParsedShopifyFile {
  orders: ParsedShopifyOrder[];
  errors: ImportIssue[];
  skippedDuplicates: number;
  skippedNotShippable: number;
}

/**
 * Reads a Shopify orders export and writes its orders to the store in one
 * transaction (prepared statements; ~10,000 orders a second or better).
 *
 * @param input the file content: text, or bytes (must be UTF-8; a BOM is fine).
 * @returns counts of imported / updated / unchanged / skipped orders and the row errors.
 * @throws ShopifyImportError when the file is empty, not UTF-8, has an unreadable
 *   header row, or lacks a required column ({@link REQUIRED_COLUMNS}).
 */
export function importShopifyCsv(store: Store, input: string | Uint8Array, opts: ShopifyImportOptions = {}): ImportReport {
  const parsed = parseShopifyCsv(input, opts);
  const report: ImportReport = {
    imported: 0,
    updated: 0,
    unchanged: 0,
    skippedDuplicates: parsed.skippedDuplicates,
    skippedNotShippable: parsed.skippedNotShippable,
    errors: parsed.errors,
  };
  store.tx(() => {
    for (const { order, hash } of parsed.orders) {
      const outcome = store.orders.upsertImported(order, hash);
      if (outcome === 'imported') report.imported++;
      else if (outcome === 'updated') report.updated++;
      else if (outcome === 'unchanged') report.unchanged++;
      else report.skippedDuplicates++;
    }
  });
  return report;
}

/**
 * Parses and validates a Shopify orders export without touching a store.
 * See {@link importShopifyCsv} for the input and the errors thrown.
 */
export function parseShopifyCsv(input: string | Uint8Array, opts: ShopifyImportOptions = {}): ParsedShopifyFile {
  const bytes = toUtf8Bytes(input);
  const lines = new LineIndex(bytes);
  const errors = new IssueList(opts.maxErrors ?? 500);
  const { header, rows, brokenLines } = readRecords(bytes, lines, errors);
  const cols = checkHeader(header);

  // Group consecutive rows by Name; a Name seen again after another order is a repeated block.
  const groups: Group[] = [];
  const seen = new Set<string>();
  let skippedDuplicates = 0;
  let current: Group | undefined;
  for (const row of rows) {
    const name = cell(row, cols.Name).trim();
    if (name === '') {
      errors.add(row.line, 'Name', 'Order number (Name) is empty, so this row cannot be matched to its order');
      // Most likely an item of the order above: do not import that order without it.
      if (current && !current.repeated) current.note ??= `line ${row.line} has no order number`;
      continue;
    }
    if (!current || current.name !== name) {
      const repeated = seen.has(name);
      // Same order again further down (e.g. two overlapping exports pasted together): keep the first.
      if (repeated) skippedDuplicates++;
      seen.add(name);
      current = { name, rows: [], repeated, rejected: false };
      if (!repeated) groups.push(current);
    }
    if (current.repeated) continue;
    current.rows.push(row);
    if (row.fields.length !== header.fields.length) {
      const n = row.fields.length;
      const column = (n < header.fields.length ? header.fields[n] : header.fields[header.fields.length - 1]) ?? '';
      errors.add(row.line, column.trim(), `This row has ${n} fields but the header has ${header.fields.length}`);
      current.rejected = true;
    }
  }
  // A row the CSV reader could not read belongs to the order whose Name starts that line.
  for (const b of brokenLines) {
    const g = b.name === undefined ? undefined : groups.find((x) => x.name === b.name);
    if (g) g.note ??= `line ${b.line} could not be read`;
  }

  const orders: ParsedShopifyOrder[] = [];
  let skippedNotShippable = 0;
  const now = opts.now ?? (() => new Date());
  for (const g of groups) {
    const first = g.rows[0];
    if (!first || g.rejected) continue;
    if (g.note !== undefined) {
      errors.add(first.line, 'Name', `Order ${g.name} was not imported because ${g.note}`);
      continue;
    }
    const built = buildOrder(g, cols, errors, now);
    if (built === 'not_shippable') skippedNotShippable++;
    else if (built) orders.push(built);
  }
  return { orders, errors: errors.list(), skippedDuplicates, skippedNotShippable };
}

// ---------------------------------------------------------------------------
// Reading the CSV

interface Row {
  fields: string[];
  /** 1-based physical line where the row starts. */
  line: number;
}

/** Consecutive rows of one order. `rejected`: a row error was already reported; `note`: why it must be left out. */
interface Group {
  name: string;
  rows: Row[];
  repeated: boolean;
  rejected: boolean;
  note?: string;
}

function toUtf8Bytes(input: string | Uint8Array): Buffer {
  if (typeof input === 'string') return Buffer.from(input, 'utf8');
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(input);
  } catch {
    throw new ShopifyImportError('not_utf8', 'The file is not UTF-8 text. Export it again from Shopify without re-saving it in Excel.', [
      { line: 1, column: '', message: 'file is not UTF-8 text' },
    ]);
  }
  return Buffer.from(input.buffer, input.byteOffset, input.byteLength);
}

/** Byte offset -> physical line. Line breaks are LF, CRLF or a lone CR. */
class LineIndex {
  private readonly starts: number[] = [0];
  constructor(private readonly bytes: Uint8Array) {
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i];
      if (b === 0x0a) this.starts.push(i + 1);
      else if (b === 0x0d && bytes[i + 1] !== 0x0a) this.starts.push(i + 1);
    }
  }
  /** 1-based line containing `offset`. */
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }
  /** Byte offset where 1-based `line` starts, or undefined past the end. */
  startOf(line: number): number | undefined {
    const s = this.starts[line - 1];
    return s === undefined || s >= this.bytes.length ? undefined : s;
  }
  /** Text of one physical line (without its break). */
  text(line: number): string {
    const s = this.starts[line - 1] ?? this.bytes.length;
    const e = this.starts[line] ?? this.bytes.length;
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset + s, e - s)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .replace(/\r?\n$|\r$/, '');
  }
}

/**
 * Reads every record with its starting line. On a CSV syntax error (bad
 * quoting) the error is recorded and reading resumes at the next physical
 * line, so one broken row does not lose the rest of the file.
 */
function readRecords(bytes: Buffer, lines: LineIndex, errors: IssueList) {
  let header: Row | undefined;
  const rows: Row[] = [];
  const brokenLines: Array<{ line: number; name: string | undefined }> = [];
  let base = 0;
  while (base < bytes.length) {
    let recordStart = base;
    try {
      parse(bytes.subarray(base), {
        bom: base === 0,
        relax_column_count: true,
        // context.bytes: bytes read so far, i.e. where this record (and its line break) ends.
        on_record: (record, context) => {
          const row: Row = { fields: record, line: lines.lineOf(recordStart) };
          recordStart = base + context.bytes;
          if (record.length === 1 && record[0] === '') return null; // blank line
          if (!header) header = row;
          else rows.push(row);
          return null;
        },
      });
      break;
    } catch (err) {
      if (!(err instanceof CsvError)) throw err;
      // The bad record starts where the last good one ended.
      const line = lines.lineOf(recordStart);
      if (!header) {
        throw new ShopifyImportError('unreadable_header', `The header row cannot be read: ${csvProblem(err)}`, [
          { line, column: '', message: csvProblem(err) },
        ]);
      }
      const column = typeof err.column === 'number' ? (header.fields[err.column] ?? '') : '';
      errors.add(line, column.trim(), `This row cannot be read: ${csvProblem(err)}`);
      brokenLines.push({ line, name: leadingField(lines.text(line)) });
      const next = lines.startOf(line + 1);
      if (next === undefined) break;
      base = next;
    }
  }
  if (!header) throw new ShopifyImportError('empty_file', 'The file is empty', [{ line: 1, column: '', message: 'file is empty' }]);
  return { header, rows, brokenLines };
}

/** A packer-readable explanation of a CSV syntax error. */
function csvProblem(err: CsvError): string {
  switch (err.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted field is never closed (a " is missing)';
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return 'text follows a closing quote; a " inside a field must be written as ""';
    case 'INVALID_OPENING_QUOTE':
      return 'a " appears inside a field that is not quoted';
    default:
      return err.message;
  }
}

/** First CSV field of a line, unquoted (used to find which order a broken row belongs to). */
function leadingField(text: string): string | undefined {
  const m = /^\s*(?:"((?:[^"]|"")*)"|([^,"]*))/.exec(text);
  const v = (m?.[1]?.replace(/""/g, '"') ?? m?.[2] ?? '').trim();
  return v === '' ? undefined : v;
}

// ---------------------------------------------------------------------------
// Columns

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
] as const;

type ColumnName = (typeof REQUIRED_COLUMNS)[number] | (typeof OPTIONAL_COLUMNS)[number];
/** Column name -> field index (-1 when the column is absent). */
type Columns = Record<ColumnName, number>;

function checkHeader(header: Row): Columns {
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

function cell(row: Row, index: number): string {
  return index < 0 ? '' : (row.fields[index] ?? '');
}

// ---------------------------------------------------------------------------
// Building orders

class IssueList {
  private readonly items: ImportIssue[] = [];
  private dropped = 0;
  constructor(private readonly max: number) {}
  add(line: number, column: string, message: string) {
    if (this.items.length < this.max) this.items.push({ line, column, message });
    else this.dropped++;
  }
  list(): ImportIssue[] {
    if (this.dropped === 0) return this.items;
    const last = this.items[this.items.length - 1];
    return [...this.items, { line: last?.line ?? 1, column: '', message: `${this.dropped} more errors not listed` }];
  }
  get count() {
    return this.items.length + this.dropped;
  }
}

const RECIPIENT_COLUMN: Record<keyof OrderRecipient, ColumnName> = {
  name: 'Shipping Name',
  company: 'Shipping Company',
  street: 'Shipping Address1',
  street2: 'Shipping Address2',
  city: 'Shipping City',
  province: 'Shipping Province',
  postalCode: 'Shipping Zip',
  countryCode: 'Shipping Country',
  phone: 'Shipping Phone',
  email: 'Email',
};

/** Shopify money: "12.50" (also "12,50" after a spreadsheet in an Italian locale). */
function parseMoney(s: string): number | undefined {
  const t = s.trim();
  if (!/^\d+(?:[.,]\d+)?$/.test(t)) return undefined;
  return Number(t.replace(',', '.'));
}

/** Shopify time "2026-09-28 14:05:33 +0200" (or ISO 8601) -> ISO 8601 UTC; undefined when not a date. */
export function parseShopifyTime(s: string): string | undefined {
  const t = s.trim();
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*(Z|[+-]\d{2}:?\d{2})?$/.exec(t);
  if (!m) return undefined;
  let zone = m[3] ?? 'Z';
  if (/^[+-]\d{4}$/.test(zone)) zone = `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const d = new Date(`${m[1]}T${m[2]}${zone}`);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** Text cleanup for phone numbers: spreadsheets' leading apostrophe. */
function cleanPhone(s: string): string {
  return s.trim().replace(/^'+/, '').trim();
}

function optional(s: string): string | undefined {
  const t = s.trim();
  return t === '' ? undefined : t;
}

function buildOrder(
  g: Group,
  cols: Columns,
  errors: IssueList,
  now: () => Date,
): ParsedShopifyOrder | 'not_shippable' | undefined {
  const errorsBefore = errors.count;
  const first = g.rows[0];
  if (!first) return undefined;
  /** Order-level value: Shopify puts it on the first row; tolerate it on a later one. */
  const field = (c: ColumnName): { value: string; line: number } => {
    for (const r of g.rows) {
      const v = cell(r, cols[c]);
      if (v.trim() !== '') return { value: v, line: r.line };
    }
    return { value: '', line: first.line };
  };

  if (g.name.length > ORDER_LIMITS.orderNumber) {
    // It becomes the shipment reference and the recipient reference (spec: Party.reference max 50).
    errors.add(first.line, 'Name', `Order number is too long (max ${ORDER_LIMITS.orderNumber} characters)`);
  }

  // Line items, one per row.
  const items: OrderItem[] = [];
  let shippable = 0;
  for (const r of g.rows) {
    const qtyText = cell(r, cols['Lineitem quantity']).trim();
    const name = cell(r, cols['Lineitem name']).trim();
    const priceText = cell(r, cols['Lineitem price']);
    const sku = optional(cell(r, cols['Lineitem sku']));
    const requiresShipping = cell(r, cols['Lineitem requires shipping']).trim().toLowerCase() !== 'false';
    const quantity = /^\d+$/.test(qtyText) ? Number(qtyText) : NaN;
    const unitPrice = parseMoney(priceText);
    let ok = true;
    if (!Number.isInteger(quantity) || quantity < 1) {
      errors.add(r.line, 'Lineitem quantity', `Quantity must be a whole number of at least 1, got "${qtyText}"`);
      ok = false;
    }
    if (name === '') {
      errors.add(r.line, 'Lineitem name', 'Item name is empty');
      ok = false;
    } else if (name.length > ORDER_LIMITS.itemName) {
      errors.add(r.line, 'Lineitem name', `Item name is too long (max ${ORDER_LIMITS.itemName} characters)`);
      ok = false;
    }
    if (unitPrice === undefined) {
      errors.add(r.line, 'Lineitem price', `Price must be a number like 12.50, got "${priceText.trim()}"`);
      ok = false;
    }
    if (sku !== undefined && sku.length > ORDER_LIMITS.sku) {
      errors.add(r.line, 'Lineitem sku', `SKU is too long (max ${ORDER_LIMITS.sku} characters)`);
      ok = false;
    }
    if (ok && requiresShipping) {
      shippable++;
      items.push(sku === undefined ? { name, quantity, unitPrice: unitPrice ?? 0 } : { sku, name, quantity, unitPrice: unitPrice ?? 0 });
    }
  }
  if (errors.count === errorsBefore && shippable === 0) return 'not_shippable';
  if (items.length > ORDER_LIMITS.items) {
    errors.add(first.line, 'Lineitem name', `An order can have at most ${ORDER_LIMITS.items} items to ship, this one has ${items.length}`);
  }

  // Recipient from the shipping address.
  const country = field('Shipping Country');
  const countryCode = country.value.trim().toUpperCase();
  const street1 = field('Shipping Address1');
  const streetCombined = field('Shipping Street');
  const useCombined = street1.value.trim() === '';
  const email = optional(field('Email').value);
  const phoneField = field('Shipping Phone').value.trim() !== '' ? field('Shipping Phone') : field('Phone');
  const province = optional(field('Shipping Province').value);
  const recipientLine: Record<keyof OrderRecipient, number> = {
    name: field('Shipping Name').line,
    company: field('Shipping Company').line,
    street: (useCombined ? streetCombined : street1).line,
    street2: field('Shipping Address2').line,
    city: field('Shipping City').line,
    province: field('Shipping Province').line,
    postalCode: field('Shipping Zip').line,
    countryCode: country.line,
    phone: phoneField.line,
    email: field('Email').line,
  };
  const recipient: OrderRecipient = {
    name: field('Shipping Name').value.trim(),
    company: optional(field('Shipping Company').value),
    street: (useCombined ? streetCombined : street1).value.trim(),
    street2: useCombined ? undefined : optional(field('Shipping Address2').value),
    city: field('Shipping City').value.trim(),
    province: province === undefined ? undefined : countryCode === 'IT' ? province.toUpperCase() : province,
    postalCode: normalizePostalCode(field('Shipping Zip').value, countryCode),
    countryCode,
    phone: optional(cleanPhone(phoneField.value)),
    email,
  };
  const problems = recipientProblems(recipient);
  for (const [key, message] of Object.entries(problems) as Array<[keyof OrderRecipient, string]>) {
    let column: string = RECIPIENT_COLUMN[key];
    if (key === 'street' && useCombined) column = cols['Shipping Address1'] >= 0 ? 'Shipping Address1' : 'Shipping Street';
    if (key === 'phone' && field('Shipping Phone').value.trim() === '') column = 'Phone';
    const shown = key === 'postalCode' ? ` (file has "${field('Shipping Zip').value.trim()}")` : '';
    errors.add(recipientLine[key], column, `${message}${shown}`);
  }

  // Order-level fields.
  let createdAt: string;
  if (cols['Created at'] < 0) createdAt = now().toISOString();
  else {
    const c = field('Created at');
    const parsed = parseShopifyTime(c.value);
    if (parsed === undefined) {
      errors.add(c.line, 'Created at', `Date must look like 2026-09-28 14:05:33 +0200, got "${c.value.trim()}"`);
    }
    createdAt = parsed ?? '';
  }
  const currencyField = field('Currency');
  const currency = currencyField.value.trim().toUpperCase() || 'EUR';
  if (!/^[A-Z]{3}$/.test(currency)) errors.add(currencyField.line, 'Currency', `Currency must be 3 letters like EUR, got "${currency}"`);
  const totalField = field('Total');
  let total: number | undefined;
  if (totalField.value.trim() !== '') {
    total = parseMoney(totalField.value);
    if (total === undefined) errors.add(totalField.line, 'Total', `Total must be a number like 49.90, got "${totalField.value.trim()}"`);
  }

  if (errors.count !== errorsBefore) return undefined;

  let status: OrderStatus = 'open';
  if (field('Cancelled at').value.trim() !== '') status = 'cancelled';
  else if (field('Fulfillment Status').value.trim().toLowerCase() === 'fulfilled') status = 'shipped';

  const order: OrderDraft = {
    orderNumber: g.name,
    email,
    createdAt,
    source: 'shopify_csv',
    recipient: dropUndefined(recipient),
    items,
    total,
    currency,
    notes: optional(field('Notes').value),
    status,
    externalId: optional(field('Id').value),
  };
  const clean = dropUndefined(order);
  return { line: first.line, order: clean, hash: contentHash(clean) };
}

function dropUndefined<T extends object>(o: T): T {
  for (const k of Object.keys(o) as Array<keyof T>) if (o[k] === undefined) delete o[k];
  return o;
}

/** sha256 over the order's JSON (keys in a fixed order, since the object is always built the same way). */
function contentHash(order: OrderDraft): string {
  return createHash('sha256').update(JSON.stringify(order)).digest('hex');
}
