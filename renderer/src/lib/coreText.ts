/**
 * Texts the core made (issue 25: printer errors, print-job notes, outbox messages) in the bench's
 * language, from their key and values (shared/contract/core-text.ts; `coreText.<key>` in the
 * locales), with every detail the core put in them: the printer's address, byte counts, the
 * reference. A text inside a text (a job note made of the printer's error) travels flat as
 * `<name>Key` and `<name>.<value>` and is worded too; `printerState` (a state code) is worded as
 * the printer's state. A text the locales do not know is left to the caller (its English message).
 */
import { isStationText } from '../../../shared/contract/core-text';
import type { StationText } from '../../../shared/contract/views';
import { stationText } from './format';
import { hasText, printerStateText, t } from './i18n';

/** Values that are codes the locales word, per core text: value name -> locale section (`stocks.status.open`). */
const WORDED_CODES: Partial<Record<string, Record<string, string>>> = {
  stockHasInstructions: { current: 'stocks.action', action: 'stocks.action' },
  stockNotOpen: { status: 'stocks.status', action: 'stocks.action' },
};

/** `text` in the bench's language, or null when there is none or the locales do not know its key. */
export function coreTextOf(text: StationText | undefined): string | null {
  if (!text) return null;
  const values: Record<string, string | number> = {};
  const nested = new Map<string, { key: string; values: Record<string, string | number> }>();
  for (const [k, v] of Object.entries(text.values ?? {})) {
    const dot = k.indexOf('.');
    if (dot > 0) {
      const name = k.slice(0, dot);
      const n = nested.get(name) ?? { key: '', values: {} };
      n.values[k.slice(dot + 1)] = v;
      nested.set(name, n);
    } else if (k.endsWith('Key') && typeof v === 'string') {
      const name = k.slice(0, -3);
      const n = nested.get(name) ?? { key: '', values: {} };
      n.key = v;
      nested.set(name, n);
    } else values[k] = v;
  }
  for (const [name, n] of nested) {
    const said = n.key ? (coreTextOf({ key: n.key, values: n.values }) ?? stationText('printerDetail', { key: n.key, values: n.values })) : null;
    if (said !== null) values[name] = said;
  }
  // Texts saved by versions before 2026-11 name the tracking number `ldv` (the wire's word).
  if (values.ldv !== undefined && values.trackingNumber === undefined) values.trackingNumber = values.ldv;
  if (typeof values.printerState === 'string') values.state = printerStateText(values.printerState).toLocaleLowerCase();
  for (const [name, section] of Object.entries(WORDED_CODES[text.key] ?? {})) {
    const code = values[name];
    if (typeof code === 'string' && hasText(`${section}.${code}`)) values[name] = t(`${section}.${code}`).toLocaleLowerCase();
  }
  return stationText('coreText', { key: text.key, values });
}

/** What a message the core made says on this bench: its text worded here, else the message as the core wrote it. */
export function coreMessage(err: { message: string; text?: unknown }): string {
  return (isStationText(err.text) ? coreTextOf(err.text) : null) ?? err.message;
}

/** A print job's note (why it failed or waits) in the bench's language; null when it has none. */
export function jobNoteText(job: { lastError: string | null; lastErrorText?: StationText }): string | null {
  if (job.lastError === null) return null;
  return coreTextOf(job.lastErrorText) ?? job.lastError;
}
