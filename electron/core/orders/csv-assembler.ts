/**
 * Rows into orders, as the rows arrive: consecutive rows with the same `Name`
 * make one order, which is built (./csv-order.ts) as soon as the next order
 * starts, so only the order being read is held. Rules in ./shopify-csv.ts.
 */
import type { ImportSkip } from '../../../shared/domain/order';
import { ORDER_LIMITS } from '../../../shared/domain/order-checks';
import { cell, checkHeader, leadingField, type Columns, type Delimiter, type Row } from './csv-columns';
import { IssueList, ShopifyImportError, SKIP_MESSAGES } from './csv-errors';
import { buildOrder, type BuildContext, type Group, type ParsedShopifyOrder } from './csv-order';
import type { BrokenRow, RecordEvent } from './csv-records';

/** Rows of one order kept for building it; further rows are counted only (the order is refused). */
const MAX_ORDER_ROWS = 1000;

/** What the assembler needs: the file's separator and the import's choices. */
export interface AssemblerOptions {
  delimiter: Delimiter;
  maxErrors: number;
  now: () => Date;
  shop: string;
  pickupMethods: readonly string[];
}

/** Groups rows into orders and builds each; finished orders go to `out`, in file order. */
export class OrderAssembler {
  readonly errors: IssueList;
  readonly warnings: IssueList;
  skippedDuplicates = 0;
  skippedNotShippable = 0;
  cancelled = 0;
  /** Orders repeated further down the file (the first is kept). */
  readonly skipped: ImportSkip[] = [];
  /** Data rows read (header and blank lines not counted). */
  rows = 0;
  /** Distinct orders found so far. */
  orders = 0;
  private header: Row | undefined;
  private cols: Columns | undefined;
  private build: BuildContext | undefined;
  /** Every order number seen (to tell a repeated block): the one thing kept per order. */
  private readonly seen = new Set<string>();
  /** Unreadable rows whose order has not started yet: order number -> spreadsheet row. */
  private readonly brokenAhead = new Map<string, number>();
  private current: (Group & { extraRows: number }) | undefined;
  private repeatedHeaders = 0;
  private lastRow: Row | undefined;

  constructor(
    private readonly opts: AssemblerOptions,
    private readonly out: (order: ParsedShopifyOrder) => void,
  ) {
    this.errors = new IssueList(opts.maxErrors);
    this.warnings = new IssueList(opts.maxErrors);
  }

  /**
   * Takes one record.
   * @throws ShopifyImportError `unreadable_header` when the first row cannot be read,
   *   `missing_columns` when the header lacks a required column.
   */
  add(ev: RecordEvent): void {
    if ('broken' in ev) this.addBroken(ev.broken);
    else if (!this.header) {
      this.cols = checkHeader(ev.row);
      this.header = ev.row;
      const { maxErrors: _m, delimiter: _d, ...rest } = this.opts;
      this.build = { cols: this.cols, errors: this.errors, warnings: this.warnings, ...rest };
    } else this.addRow(ev.row);
  }

  /**
   * Builds the last order and checks the end of the file.
   * @param endsWithLineBreak whether the text ends with a line break (false: it may be cut short).
   * @throws ShopifyImportError `empty_file` when there was no header row.
   */
  finish(endsWithLineBreak: boolean): void {
    if (!this.header) throw new ShopifyImportError('empty_file', 'The file is empty', [{ line: 1, column: '', message: 'file is empty' }]);
    this.close();
    if (!endsWithLineBreak) {
      const last = this.lastRow;
      this.warnings.add({
        line: last?.line ?? this.header.line,
        row: last?.row ?? this.header.row,
        column: '',
        message: 'The file does not end with a line break: it may have been cut short. Orders already at the station never lose lines; export again if the last order looks incomplete.',
      });
    }
  }

  private addBroken(b: BrokenRow): void {
    const header = this.header;
    if (!header) {
      throw new ShopifyImportError('unreadable_header', `The header row cannot be read: ${b.problem}`, [{ line: b.line, column: '', message: b.problem }]);
    }
    const column = b.column !== undefined ? (header.fields[b.column] ?? '') : '';
    const name = leadingField(b.text, this.opts.delimiter);
    this.errors.add({ line: b.line, row: b.row, ...(name !== undefined ? { order: name } : {}), column: column.trim(), message: `This row cannot be read: ${b.problem}` });
    // The row belongs to the order whose Name starts that line: that order is left out.
    if (name === undefined) return;
    const note = `row ${b.row} could not be read`;
    if (this.current && !this.current.repeated && this.current.name === name) this.current.note ??= note;
    else if (!this.seen.has(name) && !this.brokenAhead.has(name)) this.brokenAhead.set(name, b.row);
  }

  private addRow(row: Row): void {
    const cols = this.cols!;
    const header = this.header!;
    this.rows++;
    this.lastRow = row;
    const name = cell(row, cols.Name).trim();
    if (name === 'Name' && cell(row, cols['Shipping Country']).trim() === 'Shipping Country') {
      // Two exports pasted together: one message, then go on reading orders.
      if (this.repeatedHeaders++ === 0) {
        this.errors.add({
          line: row.line,
          row: row.row,
          column: 'Name',
          message: `Row ${row.row} repeats the header row: two exports were pasted into one file. The orders below it were read too; an order present in both was taken once.`,
        });
      }
      this.close();
      return;
    }
    if (name === '') {
      this.errors.add({ line: row.line, row: row.row, column: 'Name', message: 'Order number (Name) is empty, so this row cannot be matched to its order' });
      // Most likely an item of the order above: do not import that order without it.
      if (this.current && !this.current.repeated) this.current.note ??= `row ${row.row} has no order number`;
      return;
    }
    let g = this.current;
    if (!g || g.name !== name) {
      this.close();
      const repeated = this.seen.has(name);
      // Same order again further down (e.g. two overlapping exports pasted together): keep the first.
      if (repeated) {
        this.skippedDuplicates++;
        this.skipped.push({ order: name, row: row.row, reason: 'repeated_in_file', message: SKIP_MESSAGES.repeated_in_file(name, 0) });
      } else this.orders++;
      this.seen.add(name);
      g = { name, rows: [], repeated, rejected: false, extraRows: 0 };
      const brokenRow = this.brokenAhead.get(name);
      if (brokenRow !== undefined && !repeated) {
        g.note = `row ${brokenRow} could not be read`;
        this.brokenAhead.delete(name);
      }
      this.current = g;
    }
    if (g.repeated) return;
    if (g.rows.length < MAX_ORDER_ROWS) g.rows.push(row);
    else g.extraRows++;
    if (row.fields.length !== header.fields.length) {
      const n = row.fields.length;
      const column = (n < header.fields.length ? header.fields[n] : header.fields[header.fields.length - 1]) ?? '';
      g.fieldCountProblem ??= {
        line: row.line,
        row: row.row,
        order: name,
        column: column.trim(),
        message: `This row has ${n} fields but the header has ${header.fields.length}${n < header.fields.length ? ' (the file may be cut short)' : ''}`,
      };
      g.rejected = true;
    }
  }

  /** Builds the order being read, if any. */
  private close(): void {
    const g = this.current;
    this.current = undefined;
    if (!g || g.repeated) return;
    const first = g.rows[0];
    if (!first) return;
    const cols = this.cols!;
    const isCancelled = g.rows.some((r) => cell(r, cols['Cancelled at']).trim() !== '');
    if (isCancelled) {
      // Never a problem: import it as cancelled when it reads cleanly (so an open copy is closed), else leave it.
      this.cancelled++;
      if (g.rejected || g.note !== undefined || g.extraRows > 0) return;
      const scratch = new IssueList(50);
      const built = buildOrder(g, { ...this.build!, errors: scratch, warnings: scratch });
      if (built && built !== 'not_shippable' && scratch.count === 0) this.out(built);
      return;
    }
    if (g.rejected) {
      if (g.fieldCountProblem) this.errors.add(g.fieldCountProblem);
      return;
    }
    if (g.note !== undefined) {
      this.errors.add({ line: first.line, row: first.row, order: g.name, column: 'Name', message: `Order ${g.name} was not imported because ${g.note}` });
      return;
    }
    if (g.extraRows > 0) {
      const n = g.rows.length + g.extraRows;
      this.errors.add({ line: first.line, row: first.row, order: g.name, column: 'Lineitem name', message: `An order can have at most ${ORDER_LIMITS.items} items to ship, this one has ${n} rows` });
      return;
    }
    const built = buildOrder(g, this.build!);
    if (built === 'not_shippable') this.skippedNotShippable++;
    else if (built) this.out(built);
  }
}
