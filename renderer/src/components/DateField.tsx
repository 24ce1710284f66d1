/**
 * A date typed the way the bench's locales write it (issue 14 item 4):
 * `dd/mm/yyyy` (Italian and British English alike; `.` or `-` also accepted,
 * and an ISO `yyyy-mm-dd` pasted from elsewhere), instead of
 * `<input type="date">`, which shows the browser's own format (US
 * `mm/dd/yyyy` on an English Chromium). The value handed up is ISO
 * `YYYY-MM-DD` as the API wants it; text that is not a real calendar date is
 * handed up as typed, and the field says how to write it.
 */
import { useState } from 'react';
import { t } from '../lib/i18n';
import { TextField } from './Field';

/** `YYYY-MM-DD` of a typed date, or null when it is not a real calendar date. */
export function parseBenchDate(text: string): string | null {
  const t = text.trim();
  const m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(t) ?? null;
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  const [y, mo, d] = m ? [Number(m[3]), Number(m[2]), Number(m[1])] : iso ? [Number(iso[1]), Number(iso[2]), Number(iso[3])] : [NaN, NaN, NaN];
  if (!Number.isInteger(y) || !Number.isInteger(mo) || !Number.isInteger(d)) return null;
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return `${String(y).padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** `dd/mm/yyyy` of an ISO date; anything else as it is. */
export function showBenchDate(value: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : value;
}

interface Props {
  id: string;
  label: string;
  /** ISO `YYYY-MM-DD`, '' or text that is not a date yet. */
  value: string;
  onValue(value: string): void;
  onBlur?(): void;
  error?: string | undefined;
}

/** The date field (see file comment). */
export function DateField({ id, label, value, onValue, onBlur, error }: Props) {
  // What the packer is typing; null shows the value itself (so a reset from outside shows at once).
  const [typing, setTyping] = useState<string | null>(null);
  const text = typing ?? showBenchDate(value);
  const bad = text.trim() !== '' && parseBenchDate(text) === null;
  return (
    <TextField
      id={id}
      label={label}
      value={text}
      onValue={(v) => {
        setTyping(v);
        onValue(parseBenchDate(v) ?? v);
      }}
      onBlur={() => {
        if (!bad) setTyping(null);
        onBlur?.();
      }}
      error={bad ? t('dateField.bad', { label, pattern: t('dateField.pattern') }) : error}
      hint={t('dateField.pattern')}
      inputMode="numeric"
      placeholder={t('dateField.pattern')}
    />
  );
}
