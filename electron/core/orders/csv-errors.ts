/**
 * What the Shopify CSV import says when something is wrong: the error that
 * refuses a whole file, the capped issue lists of the report, and the
 * sentences of orders left as they were (see ./shopify-csv.ts).
 */
import type { CsvError } from 'csv-parse';
import type { ImportIssue, ImportSkip } from '../../../shared/domain/order';

/** Why a whole file was refused (nothing imported). `too_large`: over {@link MAX_IMPORT_BYTES}. */
export type ShopifyImportErrorCode = 'empty_file' | 'not_text' | 'missing_columns' | 'unreadable_header' | 'too_large';

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

/**
 * Largest export the station imports: 256 MiB (about 280,000 orders of a
 * typical shop, 1.2 million rows). Stated in the README; a larger file is refused before any
 * byte is read, with this limit in the message.
 */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024;

/** The refusal of a file over {@link MAX_IMPORT_BYTES}, naming the limit and the file's size (bytes). */
export function tooLargeError(size: number, limit = MAX_IMPORT_BYTES): ShopifyImportError {
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(n % (1024 * 1024) === 0 ? 0 : 1)} MiB`;
  const message = `The file is ${mib(size)}; the station imports exports of at most ${mib(limit)}. Export fewer orders at a time (a date range in Shopify's export dialog).`;
  return new ShopifyImportError('too_large', message, [{ line: 1, column: '', message }]);
}

/** The error of an import stopped by the station's close (`ShopifyImportOptions.signal`): the orders written so far stay. */
export function importStoppedError(): Error {
  return new Error('The import was stopped: the station is closing. The orders already read are saved; import the file again to finish.');
}

/** Issues up to a cap; one more issue says how many were left out. */
export class IssueList {
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

/** The report's sentence for an order left as it was, by reason (`lines`: its lines in the file). */
export const SKIP_MESSAGES: Record<ImportSkip['reason'], (order: string, lines: number) => string> = {
  already_shipped: (o) => `Order ${o} is already shipped or cancelled at the station: the file does not change it`,
  manual: (o) => `Order ${o} was entered by hand at the station: the file does not change it`,
  fewer_lines: (o, n) =>
    `Order ${o} has only ${n} line${n === 1 ? '' : 's'} in this file but more at the station (a cut-short or filtered export?): kept as it was`,
  repeated_in_file: (o) => `Order ${o} appears again further down the file: the first one was used`,
};

/** A packer-readable explanation of a CSV syntax error. */
export function csvProblem(err: CsvError): string {
  switch (err.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted field is never closed (a " is missing)';
    case 'CSV_MAX_RECORD_SIZE':
      return 'a quoted field is never closed (a " is missing), or a row is longer than 1,000,000 characters';
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return 'text follows a closing quote; a " inside a field must be written as ""';
    case 'INVALID_OPENING_QUOTE':
      return 'a " appears inside a field that is not quoted';
    default:
      return err.message;
  }
}
