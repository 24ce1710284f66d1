/** Language and time of the bench: i18next texts and plurals, Europe/Rome times, locale dates and money. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { calendarDate, dateTime, kg, money, nextWorkingDay, romeToday } from '../../../renderer/src/lib/format';
import { fieldName, hasText, initialLanguage, setLanguage, t } from '../../../renderer/src/lib/i18n';
import { SCREENS } from '../../../renderer/src/stores/app';
import { en } from '../../../renderer/src/lib/locales/en';
import { it as itTexts } from '../../../renderer/src/lib/locales/it';
import { whenText } from '../../../renderer/src/stores/pickup';

afterEach(async () => {
  await setLanguage('en');
});

/** Every key path of a nested text table. */
function keys(o: object, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : keys(v as object, `${prefix}${k}.`)));
}

/** Every `[key path, text]` of a nested text table. */
function entries(o: object, prefix = ''): Array<[string, string]> {
  return Object.entries(o).flatMap(([k, v]) => (typeof v === 'string' ? [[`${prefix}${k}`, v] as [string, string]] : entries(v as object, `${prefix}${k}.`)));
}

/** The `{{name}}` placeholders of a text, sorted. */
function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!).sort();
}

/** Files under `dir` (recursively) whose name ends in .ts or .tsx. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : []));
}

describe('language', () => {
  it('is Italian when the system is Italian, English otherwise, the saved choice first', () => {
    expect(initialLanguage(null, ['it-IT', 'en-US'])).toBe('it');
    expect(initialLanguage(null, ['it'])).toBe('it');
    expect(initialLanguage(null, ['de-CH', 'it-CH'])).toBe('en');
    expect(initialLanguage(null, [])).toBe('en');
    expect(initialLanguage('en', ['it-IT'])).toBe('en');
  });

  it('has the same keys in Italian and English', () => {
    expect(keys(itTexts).sort()).toEqual(keys(en).sort());
  });

  it('has no empty text, and each Italian text has the placeholders of its English one', () => {
    const italian = new Map(entries(itTexts));
    for (const [key, text] of entries(en)) {
      expect(text.trim(), `en ${key}`).not.toBe('');
      expect(italian.get(key)?.trim(), `it ${key}`).not.toBe('');
      expect(placeholders(italian.get(key) ?? ''), `placeholders of ${key}`).toEqual(placeholders(text));
    }
  });

  it('has a text for every literal key the screens ask for', () => {
    const known = new Set(keys(en).map((k) => k.replace(/_(one|other)$/, '')));
    const used = new Set<string>();
    for (const file of sources(join(__dirname, '../../../renderer/src'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/\bt\(\s*'([\w.]+)'/g)) used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(50);
    expect([...used].filter((k) => !known.has(k))).toEqual([]);
  });

  it('picks plural forms by the language rules', async () => {
    await setLanguage('it');
    expect(t('shipments.count', { count: 1 })).toBe('1 spedizione');
    expect(t('shipments.count', { count: 2 })).toBe('2 spedizioni');
    expect(t('parcels.count', { count: 1 })).toBe('1 collo');
    await setLanguage('en');
    expect(t('shipments.count', { count: 1 })).toBe('1 shipment');
    expect(t('shipments.count', { count: 0 })).toBe('0 shipments');
  });

  it('has a text for every key the screens build from a code', () => {
    const built = [
      ...SCREENS.map((x) => `nav.${x.id}`),
      ...['AM', 'PM', 'AMPM'].map((w) => `pickup.windows.${w}`),
      ...['queued', 'sending', 'done', 'needs_attention'].map((x) => `queue.state.${x}`),
      ...['queued', 'printing', 'printed', 'failed'].map((x) => `print.job.${x}`),
      ...['usb', 'queue', 'network', 'folder'].map((x) => `print.kind.${x}`),
      ...['ready', 'paper_out', 'head_open', 'paused', 'error', 'unreachable', 'unknown'].map((x) => `printerState.${x}`),
      ...['movements', 'invoices', 'codLists', 'returns'].map((x) => `account.lists.${x}`),
      ...['invoices', 'codLists', 'returns'].map((x) => `account.detail.${x}`),
      ...['to_ship', 'pickup', 'shipped', 'cancelled', 'all'].map((x) => `orders.view.${x}`),
      ...['open', 'shipped', 'cancelled'].map((x) => `orders.status.${x}`),
      ...['open', 'instructed', 'closed', 'all'].map((x) => `stocks.status.${x}`),
      ...['redeliver', 'redeliver_to_address', 'hold_for_collection', 'return_to_sender'].map((x) => `stocks.action.${x}`),
    ];
    expect(built.filter((k) => !hasText(k))).toEqual([]);
  });

  it('words a pickup window and a day close in each language', async () => {
    expect(whenText('2026-11-26', 'PM')).toBe('26/11/2026, Afternoon (PM)');
    expect(t('endOfDay.closed', { manifests: t('endOfDay.manifestCount', { count: 1 }), shipments: t('shipments.count', { count: 2 }) })).toBe('Day closed: 1 manifest, 2 shipments');
    await setLanguage('it');
    expect(whenText('2026-11-26', 'AMPM')).toBe('26/11/2026, Tutto il giorno (AMPM)');
    expect(whenText('2026-11-26', undefined)).toBe('26/11/2026');
    expect(t('endOfDay.closed', { manifests: t('endOfDay.manifestCount', { count: 2 }), shipments: t('shipments.count', { count: 1 }) })).toBe('Giornata chiusa: 2 distinte, 1 spedizione');
    expect(t('queue.attention', { count: 3 })).toBe('3 da controllare');
  });

  it('names platform paths in words', async () => {
    expect(fieldName('customsDetail.commodities.0.harmonizedCode')).toBe('Customs declaration › Customs line 1 › HS code');
    expect(fieldName('request.recipient.address.postalCode')).toBe('Recipient › postal code');
    await setLanguage('it');
    expect(fieldName('recipient.address.postalCode')).toBe('Destinatario › CAP');
  });
});

describe('time and money', () => {
  it('shows times in Europe/Rome whatever the offset of the input', async () => {
    // 23:30 UTC on 24 Nov is 00:30 on 25 Nov in Rome (CET, +01:00).
    expect(dateTime('2026-11-24T23:30:00Z')).toBe('25/11/2026, 00:30');
    expect(dateTime('2026-07-01T10:00:00-04:00')).toBe('01/07/2026, 16:00'); // CEST
    await setLanguage('it');
    expect(dateTime('2026-11-24T23:30:00Z')).toBe('25/11/2026, 00:30');
    expect(calendarDate('2026-11-24')).toBe('24/11/2026');
  });

  it('takes today and the next working day in Rome', () => {
    expect(romeToday(new Date('2026-11-20T23:30:00Z'))).toBe('2026-11-21'); // Saturday in Rome
    expect(nextWorkingDay(new Date('2026-11-20T23:30:00Z'))).toBe('2026-11-23');
  });

  it('writes kg with the language decimal mark', async () => {
    expect(kg(1.25)).toBe('1.25 kg');
    expect(kg(1250, 'G')).toBe('1.25 kg');
    expect(kg(1234.5678)).toBe('1234.568 kg');
    await setLanguage('it');
    expect(kg(1.25)).toBe('1,25 kg');
    expect(kg(4)).toBe('4 kg');
  });

  it('writes money with the euro sign in the language format', async () => {
    expect(money(12.5)).toBe('€12.50');
    await setLanguage('it');
    expect(money(1234.5)).toMatch(/^1\.?234,50\s€$/);
  });
});

describe('error codes in words', () => {
  it('every code a station command may fail with has a text in both languages; in Italian it replaces the station message, comes before the platform one', async () => {
    const { LOCAL_ERROR_CODES } = await import('../../../shared/contract/errors');
    const { PlatformErrorCode } = await import('../../../shared/platform/common');
    const { errorDetail } = await import('../../../renderer/src/lib/errors');
    for (const code of [...LOCAL_ERROR_CODES, ...PlatformErrorCode.options]) {
      expect(en.errorCode[code], code).toBeTruthy();
      expect(itTexts.errorCode[code], code).toBeTruthy();
    }
    const err = { code: 'printer_unreachable', message: 'Printer 10.0.0.5:9100 refused the connection' };
    expect(errorDetail(err)).toBe('Printer 10.0.0.5:9100 refused the connection [printer_unreachable]');
    await setLanguage('it');
    // The station's own prose is English: an Italian bench reads the code's Italian meaning alone.
    expect(errorDetail(err)).toBe('Stampante non raggiungibile: spenta, scollegata o senza rete [printer_unreachable]');
    // A platform code: its meaning, then the platform's own message.
    const platform = { code: 'validation_failed', message: 'Dati non validi' };
    expect(errorDetail(platform)).toBe(`${itTexts.errorCode.validation_failed} — Dati non validi [validation_failed]`);
    await setLanguage('en');
  });
});

describe('field messages in the bench language', () => {
  it('English stays as written; Italian by exact text or by pattern with the field translated; unknown ones as they are', async () => {
    const { fieldMessage } = await import('../../../renderer/src/lib/messages');
    const { emptyDraft } = await import('../../../renderer/src/lib/shipForm');
    const { checkForQuote: validateForQuote, checkForShip: validateForShip } = await import('../../../electron/core/shipping/ship-form');
    const { CHOOSE_BOX } = await import('../../../shared/contract/ship-form');
    expect(fieldMessage('Weight is required')).toBe('Weight is required');
    await setLanguage('it');
    expect(fieldMessage('Weight is required')).toBe('Il peso è obbligatorio');
    expect(fieldMessage('Phone must be at most 30 characters')).toBe('Il telefono: al massimo 30 caratteri');
    expect(fieldMessage('Height must be greater than 0')).toBe('L’altezza deve essere maggiore di 0');
    expect(fieldMessage('Length must be a number (in CM or MM), not text')).toBe('La lunghezza deve essere un numero');
    expect(fieldMessage('Length must be above 0 cm')).toBe('La lunghezza deve essere maggiore di 0 cm');
    expect(fieldMessage(CHOOSE_BOX)).toMatch(/^Scegli una scatola/);
    expect(fieldMessage('Something the table does not know')).toBe('Something the table does not know');
    // Every message the quote form gives an empty parcel to an empty address is in Italian.
    const blank = emptyDraft();
    for (const errors of [validateForQuote(blank), validateForShip(blank, { cashOnDeliveryMethods: { cash: 'Contanti' } })])
      for (const msgs of Object.values(errors)) for (const m of msgs) expect(fieldMessage(m), m).not.toBe(m);
    await setLanguage('en');
  });
});
