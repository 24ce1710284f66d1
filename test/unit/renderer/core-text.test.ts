/**
 * Texts the core makes, on either bench (issue 25 item 2): printer errors of the socket and USB
 * transports, print-job notes and outbox messages carry a key and values; the English message is
 * written from the same table as before, and an Italian bench says it in Italian with every
 * detail (the printer's address, byte counts, the reference) still in it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CORE_TEXTS_EN, coreText, coreTextNesting, isStationText } from '../../../shared/contract/core-text';
import { coreMessage, coreTextOf, jobNoteText } from '../../../renderer/src/lib/coreText';
import { errorDetail } from '../../../renderer/src/lib/errors';
import { printerDetailText, setLanguage } from '../../../renderer/src/lib/i18n';
import { coreIt } from '../../../renderer/src/lib/locales/core-it';

afterEach(async () => {
  await setLanguage('en');
});

/** Words of English running text that an Italian core text must not hold. */
const ENGLISH = /\b(?:the|is|was|while|within|took|no data|bytes sent|refused|failed|Printer|Waiting|plug it in)\b/;

describe('core texts', () => {
  it('write the same English messages as the core wrote before', () => {
    expect(coreText('socketRefused', { where: '10.0.0.5:9100' }).message).toBe('Printer 10.0.0.5:9100 refused the connection (is it on, and is the port right?)');
    expect(coreText('socketNoData', { where: '10.0.0.5:9100', ms: 5000, sent: 512, total: 2048 }).message).toBe('Printer 10.0.0.5:9100 took no data for 5000 ms (512 of 2048 bytes sent)');
    expect(coreText('outboxInterrupted').message).toBe('The station stopped while this request was being sent');
    const refused = coreText('socketRefused', { where: '10.0.0.5:9100' });
    expect(coreTextNesting('jobFailed', { code: 'printer_unreachable' }, { error: refused }).message).toBe(`printer_unreachable: ${refused.message}`);
    // A value the caller did not give stays a visible placeholder, never "undefined".
    expect(coreText('usbUnplugged').message).toBe('{{name}} was unplugged');
  });

  it('have an Italian text for every key, with no English prose in it', () => {
    expect(Object.keys(coreIt.coreText).sort()).toEqual(Object.keys(CORE_TEXTS_EN).sort());
    for (const [key, text] of Object.entries(coreIt.coreText)) expect(ENGLISH.exec(text.replace(/\{\{\w+\}\}/g, '')), key).toBeNull();
  });

  it('word a shipment found under another recipient, and a stock\'s codes, in Italian with the tracking numbers and reference kept', async () => {
    const conflict = coreText('shipmentElsewhereOne', { which: 'BR1234567890 (Anna Neri, 20121 IT)', reference: 'shop1-#2236', recipient: 'Jonas Petraitis, 01100 LT' });
    const said = coreTextNesting('shipmentElsewhereCheck', {}, { conflict });
    expect(said.message).toBe(
      "The platform has shipment BR1234567890 (Anna Neri, 20121 IT) with reference shop1-#2236, but this order goes to Jonas Petraitis, 01100 LT; the station did not take it as this order's. If that parcel is this order's (sent to an old address), cancel it or reprint it from the platform; if it is not, choose \"Send again\" in the Queue (F7).",
    );
    await setLanguage('it');
    const it = coreTextOf(said.text) ?? '';
    expect(it).toContain('La piattaforma ha la spedizione BR1234567890 (Anna Neri, 20121 IT) con riferimento shop1-#2236, ma questo ordine va a Jonas Petraitis, 01100 LT');
    expect(it).toContain('«Invia di nuovo» nella Coda (F7)');
    expect(ENGLISH.exec(it.replace(/\(.*?\)/g, ''))).toBeNull();
    const stock = coreText('stockNotOpen', { id: 7, trackingNumber: 'BR1234567890', status: 'closed', action: 'return_to_sender' });
    expect(stock.message).toBe('Stock 7 (BR1234567890): the stock is closed; "return_to_sender" was not sent. Check the stock before instructing again.');
    const closedInItalian = 'Giacenza 7 (BR1234567890): la giacenza è chiusa; «reso al mittente» non è stata inviata. Controlla la giacenza prima di dare nuove istruzioni.';
    expect(coreTextOf(stock.text)).toBe(closedInItalian);
    // A text saved by an earlier version named the tracking number `ldv`: it still reads whole.
    expect(coreTextOf({ key: 'stockNotOpen', values: { id: 7, ldv: 'BR1234567890', status: 'closed', action: 'return_to_sender' } })).toBe(closedInItalian);
  });

  it('are said in Italian on an Italian bench with the printer address and byte counts kept', async () => {
    await setLanguage('it');
    const e = coreText('socketNoData', { where: '10.0.0.5:9100', ms: 5000, sent: 512, total: 2048 });
    expect(coreTextOf(e.text)).toBe('La stampante 10.0.0.5:9100 non ha accettato dati per 5000 ms (512 di 2048 byte inviati)');
    expect(errorDetail({ code: 'printer_timeout', message: e.message, text: e.text })).toBe('La stampante 10.0.0.5:9100 non ha accettato dati per 5000 ms (512 di 2048 byte inviati) [printer_timeout]');
    // Without a text the error line keeps the code's Italian meaning (the station's English prose is not shown).
    expect(errorDetail({ code: 'printer_timeout', message: e.message })).toBe('La stampante non ha risposto in tempo [printer_timeout]');
  });

  it('word a note made of an error (the error worded too) and a printer state by its code', async () => {
    await setLanguage('it');
    const refused = coreText('socketRefused', { where: '10.0.0.5:9100' });
    const note = coreTextNesting('jobWaiting', {}, { error: refused });
    expect(isStationText(note.text)).toBe(true);
    expect(jobNoteText({ lastError: note.message, lastErrorText: note.text })).toBe('In attesa: La stampante 10.0.0.5:9100 ha rifiutato la connessione (è accesa? la porta è giusta?)');
    const paper = coreText('jobWaitingPrinter', { state: 'out of paper', printerState: 'paper_out', detail: 'PAPER OUT' });
    expect(jobNoteText({ lastError: paper.message, lastErrorText: paper.text })).toBe('In attesa: stampante carta finita — PAPER OUT');
    await setLanguage('en');
    expect(jobNoteText({ lastError: note.message, lastErrorText: note.text })).toBe(note.message);
  });

  it('fall back to the message as the core wrote it when there is no text or the key is unknown', async () => {
    await setLanguage('it');
    expect(jobNoteText({ lastError: null })).toBeNull();
    expect(jobNoteText({ lastError: 'cancelled' })).toBe('cancelled');
    expect(coreMessage({ message: 'Plain English from an older station', text: { key: 'notAKey', values: {} } })).toBe('Plain English from an older station');
    expect(coreMessage({ message: 'x', text: 'not a text' })).toBe('x');
    expect(isStationText({ key: 'socketRefused', values: { where: { nested: true } } })).toBe(false);
  });
});

describe('printer details and a printer not saved', () => {
  it('say the core text of a printer detail and of a nested detail in Italian', async () => {
    await setLanguage('it');
    const refused = coreText('socketRefused', { where: '10.0.0.5:9100' });
    expect(printerDetailText({ detail: refused.message, detailText: refused.text })).toBe('La stampante 10.0.0.5:9100 ha rifiutato la connessione (è accesa? la porta è giusta?)');
    const folder = { message: 'Folder /x is not writable: EACCES', text: { key: 'folderNotWritable', values: { dir: '/x', reason: 'EACCES' } } };
    const notSaved = coreTextNesting('printerNotSaved', { uri: 'file:///x' }, { detail: folder });
    expect(notSaved.message).toBe('Printer file:///x not saved: Folder /x is not writable: EACCES');
    expect(errorDetail({ code: 'printer_error', message: notSaved.message, text: notSaved.text })).toBe('Stampante file:///x non salvata: Nella cartella /x non si può scrivere: EACCES [printer_error]');
  });
});
