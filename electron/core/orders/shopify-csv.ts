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
 * Reading: the encoding is found from the bytes (UTF-8 with or without BOM,
 * UTF-16 LE/BE by BOM or by its zero bytes, otherwise Windows-1252 as Excel
 * writes it on Windows; decoded with iconv-lite), line breaks are made LF
 * (a file re-saved by Excel with CRLF and a BOM is the same file), and the
 * field separator is found in the header row (`,`, `;` as Excel writes it in
 * European locales, or a tab).
 *
 * Rules: an order is identified by its shop (chosen at import) and Shopify's
 * `Id`, never by its number alone (every shop numbers from #1001). A bad row
 * is reported with the order, its spreadsheet row and column, and its whole
 * order is left out (a partial order would be packed incomplete); every good
 * order is kept. Cancelled orders are kept as cancelled, never reported as
 * problems. Lines already fulfilled by the shop are kept as sent; an order
 * whose shipping method is a store pickup (per-shop names) is kept off the
 * to-ship list; a missing postal code or a note over 255 characters makes an
 * order that needs a fix, not an error. Importing the same file again changes
 * nothing; a re-import never lowers an order's number of lines (a truncated
 * file) nor touches an order already shipped (see `OrdersRepo.upsertImported`);
 * every order left as it was is listed with its reason. A file without a
 * required column is refused as a whole.
 */
import { createHash } from 'node:crypto';
import { CsvError, parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import {
  DEFAULT_SHOP,
  normalizePostalCode,
  ORDER_LIMITS,
  recipientProblems,
  type ImportIssue,
  type ImportReport,
  type ImportSkip,
  type OrderFixField,
  type OrderItem,
  type PaymentStatus,
  type OrderRecipient,
  type OrderStatus,
} from '../../../shared/domain/order';
import type { OrderDraft, Store } from '../store';

/** Why a whole file was refused (nothing imported). */
export type ShopifyImportErrorCode = 'empty_file' | 'not_text' | 'missing_columns' | 'unreadable_header';

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
  /** Shop the file belongs to (default {@link DEFAULT_SHOP}); trimmed, max 40 characters. */
  shop?: string;
  /**
   * Shipping method names that mean the customer collects the order (store
   * pickup, local pickup), matched case-insensitively as substrings of
   * `Shipping Method`. Default {@link DEFAULT_PICKUP_METHODS}.
   */
  pickupMethods?: readonly string[];
}

/** Shipping method words of collect-in-store / local pickup in Shopify shops (EN, IT, FR, DE, ES, PT, NL, TR). */
const DEFAULT_PICKUP_METHODS: readonly string[] = [
  'collect',
  'pickup',
  'pick up',
  'pick-up',
  'in store',
  'in-store',
  'ritiro',
  'retrait',
  'abholung',
  'recogida',
  'levantamento',
  'afhalen',
  'mağazadan teslim',
];

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

/** One order read from the file, ready for the store. `line`: where its first row starts; `row`: its spreadsheet row. */
interface ParsedShopifyOrder {
  line: number;
  row: number;
  order: OrderDraft;
  /** sha256 of the order's content: equal hashes mean an unchanged re-import. */
  hash: string;
}

/** Result of {@link parseShopifyCsv}: good orders, problems, and the counts that need no store. */
export interface ParsedShopifyFile {
  orders: ParsedShopifyOrder[];
  errors: ImportIssue[];
  /** Imported with a flag: missing postal code, note too long, no final line break. */
  warnings: ImportIssue[];
  skippedDuplicates: number;
  skippedNotShippable: number;
  /** Orders repeated further down the file (the first is kept). */
  skipped: ImportSkip[];
  /** Cancelled orders in the file (kept as cancelled when readable, never problems). */
  cancelled: number;
  shop: string;
  encoding: TextEncoding;
  delimiter: Delimiter;
}

/** How the bytes were decoded. */
type TextEncoding = 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be' | 'windows-1252';
/** Field separators the importer accepts. */
type Delimiter = ',' | ';' | '\t';

/**
 * Reads a Shopify orders export and writes its orders to the store in one
 * transaction (prepared statements; ~10,000 orders a second or better).
 *
 * @param input the file content: bytes as read from disk (preferred: the
 *   encoding is detected), or text already decoded.
 * @returns counts of imported / updated / unchanged / skipped orders, the row
 *   errors, the warnings (orders that need a fix) and every skipped order with its reason.
 * @throws ShopifyImportError when the file is empty, not text, has an unreadable
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
    warnings: parsed.warnings,
    shop: parsed.shop,
    encoding: parsed.encoding,
    delimiter: parsed.delimiter,
    cancelled: parsed.cancelled,
    skipped: [...parsed.skipped],
  };
  store.tx(() => {
    for (const { order, hash, row } of parsed.orders) {
      const res = store.orders.upsertImported(order, hash);
      if (res.outcome === 'imported') report.imported++;
      else if (res.outcome === 'updated') report.updated++;
      else if (res.outcome === 'unchanged') report.unchanged++;
      else {
        report.skippedDuplicates++;
        const reason = res.reason ?? 'already_shipped';
        report.skipped.push({ order: order.orderNumber, row, reason, message: SKIP_MESSAGES[reason](order.orderNumber, order.items.length) });
      }
    }
  });
  return report;
}

const SKIP_MESSAGES: Record<ImportSkip['reason'], (order: string, lines: number) => string> = {
  already_shipped: (o) => `Order ${o} is already shipped or cancelled at the station: the file does not change it`,
  manual: (o) => `Order ${o} was entered by hand at the station: the file does not change it`,
  fewer_lines: (o, n) =>
    `Order ${o} has only ${n} line${n === 1 ? '' : 's'} in this file but more at the station (a cut-short or filtered export?): kept as it was`,
  repeated_in_file: (o) => `Order ${o} appears again further down the file: the first one was used`,
};

/**
 * Parses and validates a Shopify orders export without touching a store.
 * See {@link importShopifyCsv} for the input and the errors thrown.
 */
export function parseShopifyCsv(input: string | Uint8Array, opts: ShopifyImportOptions = {}): ParsedShopifyFile {
  const { text, encoding } = decodeInput(input);
  // CRLF and lone CR become LF: a file re-saved by Excel is the same file (also inside quoted notes).
  const normalized = text.replace(/\r\n?/g, '\n');
  const bytes = Buffer.from(normalized, 'utf8');
  const delimiter = detectDelimiter(normalized);
  const shop = (opts.shop ?? '').trim() || DEFAULT_SHOP;
  const pickupMethods = (opts.pickupMethods ?? DEFAULT_PICKUP_METHODS).map((m) => m.trim().toLowerCase()).filter((m) => m !== '');
  const lines = new LineIndex(bytes);
  const errors = new IssueList(opts.maxErrors ?? 500);
  const warnings = new IssueList(opts.maxErrors ?? 500);
  const { header, rows, brokenLines } = readRecords(bytes, lines, errors, delimiter);
  const cols = checkHeader(header);
  if (normalized.length > 0 && !normalized.endsWith('\n')) {
    const last = rows[rows.length - 1];
    warnings.add({
      line: last?.line ?? header.line,
      row: last?.row ?? header.row,
      column: '',
      message: 'The file does not end with a line break: it may have been cut short. Orders already at the station never lose lines; export again if the last order looks incomplete.',
    });
  }

  // Group consecutive rows by Name; a Name seen again after another order is a repeated block.
  const groups: Group[] = [];
  const seen = new Set<string>();
  const skipped: ImportSkip[] = [];
  let skippedDuplicates = 0;
  let repeatedHeaders = 0;
  let current: Group | undefined;
  for (const row of rows) {
    const name = cell(row, cols.Name).trim();
    if (name === 'Name' && cell(row, cols['Shipping Country']).trim() === 'Shipping Country') {
      // Two exports pasted together: one message, then go on reading orders.
      if (repeatedHeaders++ === 0) {
        errors.add({
          line: row.line,
          row: row.row,
          column: 'Name',
          message: `Row ${row.row} repeats the header row: two exports were pasted into one file. The orders below it were read too; an order present in both was taken once.`,
        });
      }
      current = undefined;
      continue;
    }
    if (name === '') {
      errors.add({ line: row.line, row: row.row, column: 'Name', message: 'Order number (Name) is empty, so this row cannot be matched to its order' });
      // Most likely an item of the order above: do not import that order without it.
      if (current && !current.repeated) current.note ??= `row ${row.row} has no order number`;
      continue;
    }
    if (!current || current.name !== name) {
      const repeated = seen.has(name);
      // Same order again further down (e.g. two overlapping exports pasted together): keep the first.
      if (repeated) {
        skippedDuplicates++;
        skipped.push({ order: name, row: row.row, reason: 'repeated_in_file', message: SKIP_MESSAGES.repeated_in_file(name, 0) });
      }
      seen.add(name);
      current = { name, rows: [], repeated, rejected: false };
      if (!repeated) groups.push(current);
    }
    if (current.repeated) continue;
    current.rows.push(row);
    if (row.fields.length !== header.fields.length) {
      const n = row.fields.length;
      const column = (n < header.fields.length ? header.fields[n] : header.fields[header.fields.length - 1]) ?? '';
      current.fieldCountProblem ??= {
        line: row.line,
        row: row.row,
        order: name,
        column: column.trim(),
        message: `This row has ${n} fields but the header has ${header.fields.length}${n < header.fields.length ? ' (the file may be cut short)' : ''}`,
      };
      current.rejected = true;
    }
  }
  // A row the CSV reader could not read belongs to the order whose Name starts that line.
  for (const b of brokenLines) {
    const g = b.name === undefined ? undefined : groups.find((x) => x.name === b.name);
    if (g) g.note ??= `row ${b.row} could not be read`;
  }

  const orders: ParsedShopifyOrder[] = [];
  let skippedNotShippable = 0;
  let cancelled = 0;
  const now = opts.now ?? (() => new Date());
  for (const g of groups) {
    const first = g.rows[0];
    if (!first) continue;
    const isCancelled = g.rows.some((r) => cell(r, cols['Cancelled at']).trim() !== '');
    if (isCancelled) {
      // Never a problem: import it as cancelled when it reads cleanly (so an open copy is closed), else leave it.
      cancelled++;
      if (g.rejected || g.note !== undefined) continue;
      const scratch = new IssueList(50);
      const built = buildOrder(g, cols, scratch, scratch, now, shop, pickupMethods);
      if (built && built !== 'not_shippable' && scratch.count === 0) orders.push(built);
      continue;
    }
    if (g.rejected) {
      if (g.fieldCountProblem) errors.add(g.fieldCountProblem);
      continue;
    }
    if (g.note !== undefined) {
      errors.add({ line: first.line, row: first.row, order: g.name, column: 'Name', message: `Order ${g.name} was not imported because ${g.note}` });
      continue;
    }
    const built = buildOrder(g, cols, errors, warnings, now, shop, pickupMethods);
    if (built === 'not_shippable') skippedNotShippable++;
    else if (built) orders.push(built);
  }
  return {
    orders,
    errors: errors.list(),
    warnings: warnings.list(),
    skippedDuplicates,
    skippedNotShippable,
    skipped,
    cancelled,
    shop,
    encoding,
    delimiter,
  };
}

// ---------------------------------------------------------------------------
// Encoding and separator

/**
 * Decodes the file's bytes. BOM first (UTF-8, UTF-16 LE/BE); without one,
 * UTF-16 is recognised by its zero bytes (ASCII text in UTF-16 has a 0 in
 * every other byte), then strict UTF-8; anything else is Windows-1252, what
 * Excel on Windows writes ("CSV (Comma delimited)"). The BOM is dropped.
 * @throws ShopifyImportError `not_text` for binary content (zero bytes that are not UTF-16).
 */
function decodeInput(input: string | Uint8Array): { text: string; encoding: TextEncoding } {
  if (typeof input === 'string') return { text: input.replace(/^\uFEFF/, ''), encoding: 'utf-8' };
  const buf = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return { text: utf8Strict(buf.subarray(3)), encoding: 'utf-8-bom' };
  if (buf[0] === 0xff && buf[1] === 0xfe) return { text: iconv.decode(buf.subarray(2), 'utf-16le'), encoding: 'utf-16le' };
  if (buf[0] === 0xfe && buf[1] === 0xff) return { text: iconv.decode(buf.subarray(2), 'utf-16be'), encoding: 'utf-16be' };
  const sample = buf.subarray(0, Math.min(buf.length, 4096));
  let zeroEven = 0;
  let zeroOdd = 0;
  for (let i = 0; i < sample.length; i++) {
    if (sample[i] !== 0) continue;
    if (i % 2 === 0) zeroEven++;
    else zeroOdd++;
  }
  const half = sample.length / 2;
  if (zeroOdd > half * 0.3 && zeroEven < half * 0.05) return { text: iconv.decode(buf, 'utf-16le'), encoding: 'utf-16le' };
  if (zeroEven > half * 0.3 && zeroOdd < half * 0.05) return { text: iconv.decode(buf, 'utf-16be'), encoding: 'utf-16be' };
  if (zeroEven + zeroOdd > 0) {
    throw new ShopifyImportError('not_text', 'This file is not a text (CSV) file. Export the orders from Shopify as CSV.', [
      { line: 1, column: '', message: 'file contains binary data' },
    ]);
  }
  try {
    return { text: utf8Strict(buf), encoding: 'utf-8' };
  } catch {
    return { text: iconv.decode(buf, 'windows-1252'), encoding: 'windows-1252' };
  }
}

function utf8Strict(buf: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: true }).decode(buf);
}

/**
 * The separator of the header row: the one of `,` `;` tab that splits it
 * into the most known Shopify columns (ties: the most frequent outside quotes).
 */
function detectDelimiter(text: string): Delimiter {
  const end = text.indexOf('\n');
  const headerLine = end < 0 ? text : text.slice(0, end);
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

// ---------------------------------------------------------------------------
// Reading the CSV

interface Row {
  fields: string[];
  /** 1-based physical line where the row starts. */
  line: number;
  /** 1-based row as a spreadsheet numbers it (header = 1; a multi-line note is one row). */
  row: number;
}

/** Consecutive rows of one order. `rejected`: a row has the wrong field count (`fieldCountProblem`); `note`: why it must be left out. */
interface Group {
  name: string;
  rows: Row[];
  repeated: boolean;
  rejected: boolean;
  fieldCountProblem?: ImportIssue;
  note?: string;
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
function readRecords(bytes: Buffer, lines: LineIndex, errors: IssueList, delimiter: Delimiter) {
  let header: Row | undefined;
  const rows: Row[] = [];
  const brokenLines: Array<{ line: number; row: number; name: string | undefined }> = [];
  let base = 0;
  let rowNumber = 0;
  while (base < bytes.length) {
    let recordStart = base;
    try {
      parse(bytes.subarray(base), {
        bom: false,
        delimiter,
        relax_column_count: true,
        // context.bytes: bytes read so far, i.e. where this record (and its line break) ends.
        on_record: (record, context) => {
          rowNumber++;
          const row: Row = { fields: record, line: lines.lineOf(recordStart), row: rowNumber };
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
      rowNumber++;
      const line = lines.lineOf(recordStart);
      if (!header) {
        throw new ShopifyImportError('unreadable_header', `The header row cannot be read: ${csvProblem(err)}`, [
          { line, column: '', message: csvProblem(err) },
        ]);
      }
      const column = typeof err.column === 'number' ? (header.fields[err.column] ?? '') : '';
      const name = leadingField(lines.text(line), delimiter);
      errors.add({ line, row: rowNumber, ...(name !== undefined ? { order: name } : {}), column: column.trim(), message: `This row cannot be read: ${csvProblem(err)}` });
      brokenLines.push({ line, row: rowNumber, name });
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
function leadingField(text: string, delimiter: Delimiter): string | undefined {
  const sep = delimiter === '\t' ? '\\t' : delimiter;
  const m = new RegExp(`^\\s*(?:"((?:[^"]|"")*)"|([^${sep}"]*))`).exec(text);
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
  'Financial Status',
  'Shipping Method',
  'Lineitem fulfillment status',
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
  add(issue: ImportIssue) {
    if (this.items.length < this.max) this.items.push(issue);
    else this.dropped++;
  }
  list(): ImportIssue[] {
    if (this.dropped === 0) return this.items;
    const last = this.items[this.items.length - 1];
    return [...this.items, { line: last?.line ?? 1, column: '', message: `${this.dropped} more not listed` }];
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

/** Shopify `Financial Status` -> {@link PaymentStatus}. */
function paymentStatusOf(raw: string): PaymentStatus {
  switch (raw.trim().toLowerCase()) {
    case 'paid':
    case 'partially_refunded':
      return 'paid';
    case 'pending':
    case 'authorized':
    case 'partially_paid':
    case 'unpaid':
    case 'expired':
      return 'unpaid';
    case 'refunded':
      return 'refunded';
    case 'voided':
      return 'voided';
    default:
      return 'unknown';
  }
}

function buildOrder(
  g: Group,
  cols: Columns,
  errors: IssueList,
  warnings: IssueList,
  now: () => Date,
  shop: string,
  pickupMethods: readonly string[],
): ParsedShopifyOrder | 'not_shippable' | undefined {
  const errorsBefore = errors.count;
  const first = g.rows[0];
  if (!first) return undefined;
  const order = g.name;
  const rowOf = new Map(g.rows.map((r) => [r.line, r.row]));
  const issue = (line: number, column: string, message: string): ImportIssue => ({ line, row: rowOf.get(line) ?? first.row, order, column, message });
  const err = (line: number, column: string, message: string) => errors.add(issue(line, column, message));
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
    err(first.line, 'Name', `Order number is too long (max ${ORDER_LIMITS.orderNumber} characters)`);
  }

  // Line items, one per row.
  const items: OrderItem[] = [];
  let shippable = 0;
  let toShip = 0;
  for (const r of g.rows) {
    const qtyText = cell(r, cols['Lineitem quantity']).trim();
    const name = cell(r, cols['Lineitem name']).trim();
    const priceText = cell(r, cols['Lineitem price']);
    const sku = optional(cell(r, cols['Lineitem sku']));
    const requiresShipping = cell(r, cols['Lineitem requires shipping']).trim().toLowerCase() !== 'false';
    const fulfilled = cell(r, cols['Lineitem fulfillment status']).trim().toLowerCase() === 'fulfilled';
    const quantity = /^\d+$/.test(qtyText) ? Number(qtyText) : NaN;
    const unitPrice = parseMoney(priceText);
    let ok = true;
    if (!Number.isInteger(quantity) || quantity < 1) {
      err(r.line, 'Lineitem quantity', `Quantity must be a whole number of at least 1, got "${qtyText}"`);
      ok = false;
    }
    if (name === '') {
      err(r.line, 'Lineitem name', 'Item name is empty');
      ok = false;
    } else if (name.length > ORDER_LIMITS.itemName) {
      err(r.line, 'Lineitem name', `Item name is too long (max ${ORDER_LIMITS.itemName} characters)`);
      ok = false;
    }
    if (unitPrice === undefined) {
      err(r.line, 'Lineitem price', `Price must be a number like 12.50, got "${priceText.trim()}"`);
      ok = false;
    }
    if (sku !== undefined && sku.length > ORDER_LIMITS.sku) {
      err(r.line, 'Lineitem sku', `SKU is too long (max ${ORDER_LIMITS.sku} characters)`);
      ok = false;
    }
    if (ok && requiresShipping) {
      shippable++;
      if (!fulfilled) toShip++;
      const item: OrderItem = { name, quantity, unitPrice: unitPrice ?? 0 };
      if (sku !== undefined) item.sku = sku;
      if (fulfilled) item.fulfilled = true;
      items.push(item);
    }
  }
  if (errors.count === errorsBefore && shippable === 0) return 'not_shippable';
  if (items.length > ORDER_LIMITS.items) {
    err(first.line, 'Lineitem name', `An order can have at most ${ORDER_LIMITS.items} items to ship, this one has ${items.length}`);
  }

  const shippingMethod = optional(field('Shipping Method').value);
  const methodLower = shippingMethod?.toLowerCase() ?? '';
  const isPickup = methodLower !== '' && pickupMethods.some((m) => methodLower.includes(m));

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
  const needsFix: OrderFixField[] = [];
  const problems = recipientProblems(recipient);
  for (const [key, message] of Object.entries(problems) as Array<[keyof OrderRecipient, string]>) {
    if (key === 'postalCode' && recipient.postalCode === '') {
      // Countries without postcodes (AE, HK, ...) or a shop where the zip is optional: the packer completes it.
      needsFix.push('postalCode');
      warnings.add(issue(recipientLine.postalCode, 'Shipping Zip', `Order ${order} has no postal code (${countryCode || 'no country'}): imported as "needs fix", complete it before shipping`));
      continue;
    }
    // A store pickup is not sent by carrier: its address need not be complete.
    if (isPickup && key !== 'countryCode') continue;
    let column: string = RECIPIENT_COLUMN[key];
    if (key === 'street' && useCombined) column = cols['Shipping Address1'] >= 0 ? 'Shipping Address1' : 'Shipping Street';
    if (key === 'phone' && field('Shipping Phone').value.trim() === '') column = 'Phone';
    const shown = key === 'postalCode' ? ` (file has "${field('Shipping Zip').value.trim()}")` : '';
    err(recipientLine[key], column, `${message}${shown}`);
  }

  // Order-level fields.
  let createdAt: string;
  if (cols['Created at'] < 0) createdAt = now().toISOString();
  else {
    const c = field('Created at');
    const parsed = parseShopifyTime(c.value);
    if (parsed === undefined) {
      err(c.line, 'Created at', `Date must look like 2026-09-28 14:05:33 +0200, got "${c.value.trim()}"`);
    }
    createdAt = parsed ?? '';
  }
  const currencyField = field('Currency');
  const currency = currencyField.value.trim().toUpperCase() || 'EUR';
  if (!/^[A-Z]{3}$/.test(currency)) err(currencyField.line, 'Currency', `Currency must be 3 letters like EUR, got "${currency}"`);
  const totalField = field('Total');
  let total: number | undefined;
  if (totalField.value.trim() !== '') {
    total = parseMoney(totalField.value);
    if (total === undefined) err(totalField.line, 'Total', `Total must be a number like 49.90, got "${totalField.value.trim()}"`);
  }
  const notesField = field('Notes');
  const notes = optional(notesField.value);
  if (notes !== undefined && notes.length > ORDER_LIMITS.notes) {
    // The platform refuses shipment notes over 255 characters: say so now, not at the bench.
    needsFix.push('notes');
    warnings.add(issue(notesField.line, 'Notes', `Order ${order} has a note of ${notes.length} characters; the platform takes ${ORDER_LIMITS.notes}: shorten it before shipping`));
  }

  if (errors.count !== errorsBefore) return undefined;

  let status: OrderStatus = 'open';
  if (field('Cancelled at').value.trim() !== '') status = 'cancelled';
  else if (field('Fulfillment Status').value.trim().toLowerCase() === 'fulfilled' || toShip === 0) status = 'shipped';

  const draft: OrderDraft = {
    shop,
    shopOrderId: optional(field('Id').value),
    orderNumber: g.name,
    email,
    createdAt,
    source: 'shopify_csv',
    recipient: dropUndefined(recipient),
    items,
    total,
    currency,
    notes,
    status,
    paymentStatus: paymentStatusOf(field('Financial Status').value),
    delivery: isPickup ? 'pickup' : 'ship',
    shippingMethod,
    needsFix,
  };
  const clean = dropUndefined(draft);
  return { line: first.line, row: first.row, order: clean, hash: contentHash(clean) };
}

function dropUndefined<T extends object>(o: T): T {
  for (const k of Object.keys(o) as Array<keyof T>) if (o[k] === undefined) delete o[k];
  return o;
}

/** sha256 over the order's JSON (keys in a fixed order, since the object is always built the same way). */
function contentHash(order: OrderDraft): string {
  return createHash('sha256').update(JSON.stringify(order)).digest('hex');
}
