/** Display formats of the bench (English labels, euro amounts, kg, cm). */

/** `12.5, 'EUR'` -> `€12.50`. Unknown currency codes fall back to `12.50 XYZ`. */
export function money(amount: number, currency = 'EUR'): string {
  try {
    return new Intl.NumberFormat('en-IE', { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

/** Weight in kg with up to 3 decimals: `1.25 kg`. Grams are converted. */
export function kg(value: number, units: 'KG' | 'G' = 'KG'): string {
  const v = units === 'G' ? value / 1000 : value;
  return `${Number(v.toFixed(3))} kg`;
}

/** ISO date-time -> local `21 Nov 2026, 14:05`; the input when it does not parse. */
export function dateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString('en-GB', { day: '2-digit', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** ISO date `YYYY-MM-DD` of a local Date. */
function isoDate(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** Next working day (Mon-Fri) after `from`, as `YYYY-MM-DD`: the default pickup date. */
export function nextWorkingDay(from: Date): string {
  const d = new Date(from.getFullYear(), from.getMonth(), from.getDate() + 1);
  while (d.getDay() === 0 || d.getDay() === 6) d.setDate(d.getDate() + 1);
  return isoDate(d);
}

/**
 * Parses a number typed at the bench: accepts a decimal comma (`1,5`).
 * Blank -> undefined (so the schema says "required"); junk -> NaN (schema says "must be a number").
 */
export function parseDecimal(text: string): number | undefined {
  const t = text.trim().replace(',', '.');
  if (t === '') return undefined;
  return /^-?\d*\.?\d+$|^-?\d+\.$/.test(t) ? Number(t) : Number.NaN;
}
