/**
 * The day report's CSV (issue 26): one row per parcel shipment of the day,
 * in the bench's language: time in Europe/Rome, packer, shop, order,
 * carrier, contract, tracking number, weight (kg), cost, status. RFC 4180:
 * comma separated, CRLF, a field quoted when it holds a comma, semicolon, quote
 * or line break (a spreadsheet set to split on `;`, as Italian ones are, keeps it whole); a UTF-8 byte order mark so spreadsheet programs read accents. A
 * field starting with `=`, `+`, `-`, `@`, tab or CR is prefixed with `'`, so
 * a shop's text never runs as a spreadsheet formula (OWASP CSV injection).
 */
import { romeTime } from '../../../shared/domain/rome-day';
import type { ReportText } from '../../../shared/reports/text';
import type { ParcelRow } from '../store';

const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field, quoted when needed and defused as a formula. */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const s = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",;\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The CSV text of `rows`; `packerOf` names who shipped each tracking number (null: nobody signed in). */
export function dayCsv(rows: readonly ParcelRow[], packerOf: ReadonlyMap<string, string | null>, text: ReportText): string {
  const lines = [text.csvHeaders.map(csvField).join(',')];
  for (const r of rows) {
    lines.push(
      [
        romeTime(Date.parse(r.createdAt)),
        packerOf.get(r.trackingNumber) ?? '',
        r.shop ?? '',
        r.orderNumber ?? '',
        r.carrier,
        r.contract,
        r.trackingNumber,
        r.weightKg,
        r.cost.toFixed(2),
        r.status,
      ]
        .map(csvField)
        .join(','),
    );
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
