/**
 * CSV records of the decoded text (./csv-text.ts), with csv-parse's streaming
 * parser, chunk by chunk: only the record being read is held (at most
 * {@link MAX_RECORD_CHARS} characters), never the file.
 *
 * On a CSV syntax error (bad quoting) the row is reported and reading resumes
 * at the next physical line with a new parser, so one broken row does not
 * lose the rest of the file. An unclosed quote stops at
 * {@link MAX_RECORD_CHARS} instead of swallowing the rest of the file.
 */
import { CsvError, Parser } from 'csv-parse';
import type { Delimiter, Row } from './csv-columns';
import { csvProblem } from './csv-errors';

/** Longest record (row with its multi-line notes) read before it counts as broken. */
const MAX_RECORD_CHARS = 1_000_000;

/** A row the CSV reader could not read. `column`: index of the field where it failed, when known. */
export interface BrokenRow {
  line: number;
  row: number;
  /** The row's first physical line (to find its order). */
  text: string;
  problem: string;
  column?: number;
}

/** What the reader found: a row, or a row it could not read. Blank lines are dropped. */
export type RecordEvent = { row: Row } | { broken: BrokenRow };

/**
 * Reads records from UTF-8 chunks with LF line breaks. Call {@link push} for
 * each chunk, then {@link end}; each returns the events of what it read.
 */
export class RecordReader {
  private parser: Parser;
  private events: RecordEvent[] = [];
  /** Bytes from the start of the record being read up to the last byte fed. */
  private pending: Buffer = Buffer.alloc(0);
  /** Offset in the text where {@link pending} starts (the record being read). */
  private recordStart = 0;
  /** Offset in the text where the current parser started, and its first line. */
  private parserStart = 0;
  private parserLine = 1;
  /** Line where the record being read starts. */
  private recordLine = 1;
  private rowNumber = 0;
  /** Offset in the text where {@link pending} starts. */
  private pendingOffset = 0;
  /** After a broken row with no line break yet: drop bytes up to the next one. */
  private skippingLine = false;

  constructor(private readonly delimiter: Delimiter) {
    this.parser = this.newParser(0, 1);
  }

  /** Reads one chunk; returns the rows it completed. */
  async push(chunk: Buffer): Promise<RecordEvent[]> {
    let data = chunk;
    if (this.skippingLine) {
      const nl = data.indexOf(0x0a);
      if (nl < 0) {
        this.recordStart += data.length;
        this.pendingOffset = this.recordStart;
        return this.take();
      }
      this.skippingLine = false;
      this.recordStart += nl + 1;
      this.pendingOffset = this.recordStart;
      this.recordLine++;
      data = data.subarray(nl + 1);
      this.parser = this.newParser(this.recordStart, this.recordLine);
    }
    this.pending = this.pending.length > 0 ? Buffer.concat([this.pending, data]) : data;
    await this.feed(data, false);
    return this.take();
  }

  /** Reads what the parser still holds (the last row without a line break). */
  async end(): Promise<RecordEvent[]> {
    if (!this.skippingLine) await this.feed(undefined, true);
    return this.take();
  }

  private take(): RecordEvent[] {
    const out = this.events;
    this.events = [];
    return out;
  }

  /**
   * Feeds data to the parser (undefined: none) and ends it when `last`. On a
   * CSV error, reports the row and reads again from its next line with a new
   * parser (the bytes since the row's start are still in {@link pending}).
   */
  private async feed(data: Buffer | undefined, last: boolean): Promise<void> {
    let next = data;
    for (;;) {
      let err = next !== undefined && next.length > 0 ? await write(this.parser, next) : undefined;
      if (!err && last) err = await finish(this.parser);
      // Keep only the record being read.
      this.pending = this.pending.subarray(Math.min(this.pending.length, this.recordStart - this.pendingOffset));
      this.pendingOffset = this.recordStart;
      if (!err) return;
      if (!(err instanceof CsvError)) throw err;
      const nl = this.pending.indexOf(0x0a);
      this.events.push({
        broken: {
          line: this.recordLine,
          row: ++this.rowNumber,
          text: this.pending.subarray(0, nl < 0 ? this.pending.length : nl).toString('utf8'),
          problem: csvProblem(err),
          ...(typeof err.column === 'number' ? { column: err.column } : {}),
        },
      });
      if (nl < 0) {
        // The broken row is the last line read so far: drop the rest of that line.
        this.recordStart += this.pending.length;
        this.pendingOffset = this.recordStart;
        this.pending = Buffer.alloc(0);
        if (!last) this.skippingLine = true;
        return;
      }
      this.recordStart += nl + 1;
      this.pendingOffset = this.recordStart;
      this.recordLine++;
      this.pending = this.pending.subarray(nl + 1);
      this.parser = this.newParser(this.recordStart, this.recordLine);
      next = this.pending;
    }
  }

  private newParser(start: number, line: number): Parser {
    this.parserStart = start;
    this.parserLine = line;
    const parser = new Parser({
      bom: false,
      delimiter: this.delimiter,
      // The text's breaks are LF already (./csv-text.ts): no guessing per record.
      record_delimiter: '\n',
      relax_column_count: true,
      max_record_size: MAX_RECORD_CHARS,
      // context.lines: line where this record ends; context.bytes: where it (and its line break) ends.
      on_record: (record: string[], context) => {
        const row: Row = { fields: record, line: this.recordLine, row: ++this.rowNumber };
        this.recordLine = this.parserLine + context.lines;
        this.recordStart = this.parserStart + context.bytes;
        if (!(record.length === 1 && record[0] === '')) this.events.push({ row }); // blank line
        return null;
      },
    });
    // Errors are read from the write and end callbacks; the event must not go unhandled.
    parser.on('error', () => undefined);
    parser.resume();
    return parser;
  }
}

/** Writes a chunk; resolves with the parser's error, if any. */
function write(parser: Parser, chunk: Buffer): Promise<Error | undefined> {
  return new Promise((resolve) => parser.write(chunk, (err) => resolve(err ?? undefined)));
}

/** Ends the parser (it reads its last record); resolves with its error, if any. */
function finish(parser: Parser): Promise<Error | undefined> {
  return new Promise((resolve) => parser.end((err?: Error | null) => resolve(err ?? undefined)));
}
