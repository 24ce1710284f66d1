/**
 * The words of the page's labels-ahead panels (issue 43 items 3–6): the settings, the batch prints and the day's
 * close, in English and Italian, and {@link closeSaid}, the close in sentences (the page shows them; the API's
 * answer carries them too). Money as the page writes it in each language: `€58.20`, `58,20 €`.
 */
import type { CloseResult } from '../ahead-types';
import type { BatchSelection, BatchView } from '../batch';
import { fill, type Language } from './words';

/** The words of one language. */
export interface AheadWords {
  settingsTitle: string;
  enabled: string;
  rules: string;
  rulesAll: string;
  rulesChosen: string;
  noRules: string;
  shipsByItself: string;
  horizon: string;
  horizonToday: string;
  horizonHours: string;
  hours: string;
  headroom: string;
  headroomHint: string;
  faceDown: string;
  save: string;
  saved: string;
  refused: string;
  batchTitle: string;
  selection: string;
  selectionKind: Readonly<Record<BatchSelection['kind'], string>>;
  selectionLine: Readonly<Record<BatchSelection['kind'], string>>;
  bench: string;
  offlineBench: string;
  noBench: string;
  print: string;
  waitingLine: string;
  waitingLineOne: string;
  noneWaiting: string;
  /** A refused field of the settings, by the field the server named (else its message). */
  fieldRefused: Readonly<Partial<Record<string, string>>>;
  /** A refused batch, by the server's code (else its message). */
  batchRefused: Readonly<Partial<Record<string, string>>>;
  batchMade: string;
  batches: string;
  noBatches: string;
  batchLine: string;
  batchState: Readonly<Record<BatchView['state'], string>>;
  pickList: string;
  closeTitle: string;
  closeHint: string;
  closeButton: string;
  closeConfirm: string;
  closeCancel: string;
  closing: string;
  noPlatform: string;
  lastClose: string;
  cancelledLine: string;
  cancelledLineOne: string;
  cancelledNone: string;
  refusedLine: Readonly<Record<CloseResult['cancelRefused'][number]['reason'], string>>;
  manifestLine: string;
  manifestLineOne: string;
  manifestAlready: string;
  manifestFailed: string;
  noManifest: string;
  offlineLine: string;
  offlineLineOne: string;
  offlineLineNone: string;
  closedAt: string;
  closedAtBench: string;
  /** The budget panel's rows (issue 43 item 6). */
  labelWaitToday: string;
  labelWaitTodayNone: string;
  aheadWaiting: string;
  aheadWaitingLine: string;
  aheadToday: string;
  aheadTodayLine: string;
  aheadCancelled: string;
  aheadCancelledLine: string;
  aheadCancelledLineOne: string;
}

export const AHEAD_WORDS: Readonly<Record<Language, AheadWords>> = {
  en: {
    settingsTitle: 'Labels ahead',
    enabled: 'Buy labels ahead in quiet minutes',
    rules: 'For which rules',
    rulesAll: 'Every rule that ships by itself',
    rulesChosen: 'Only the rules chosen',
    noRules: 'No rules are shared in this warehouse yet',
    shipsByItself: 'ships by itself',
    horizon: 'How far ahead',
    horizonToday: 'Today’s imported orders',
    horizonHours: 'Orders imported in the last',
    hours: 'hours',
    headroom: 'Labels a minute left to packers',
    headroomHint: 'of the account’s 30',
    faceDown: 'The batch printer stacks labels face down (print the last label first)',
    save: 'Save',
    saved: 'Saved',
    refused: 'Not saved: {message}',
    batchTitle: 'Print labels ahead in a batch',
    selection: 'Which labels',
    selectionKind: { single: 'Single-item orders', sku: 'A SKU', shop: 'A shop', all: 'All' },
    selectionLine: { single: 'single-item orders', sku: 'SKU {v}', shop: 'shop {v}', all: 'all' },
    bench: 'At bench',
    offlineBench: '{name} (offline)',
    noBench: 'No bench is on',
    print: 'Print',
    waitingLine: '{n} labels bought ahead are waiting ({single} of single-item orders)',
    waitingLineOne: '1 label bought ahead is waiting ({single} of single-item orders)',
    noneWaiting: 'none waiting',
    fieldRefused: {},
    batchRefused: { nothing_to_print: 'No label bought ahead waits for an order of that selection' },
    batchMade: 'Batch {id}: {n} labels sent to {bench}',
    batches: 'Batches',
    noBatches: 'No batch printed yet',
    batchLine: 'Batch {id} · {selection} · {bench} · {printed} of {n} printed · {state} · {t}',
    batchState: { waiting: 'waiting for the bench', printing: 'printing', printed: 'printed', failed: 'failed' },
    pickList: 'Pick list (PDF)',
    closeTitle: 'Close the day',
    closeHint: 'Once for the whole warehouse: labels bought ahead and not printed are cancelled, then one manifest per contract with every printed shipment.',
    closeButton: 'Close the day for the warehouse',
    closeConfirm: 'Close the day now for every bench?',
    closeCancel: 'Not now',
    closing: 'Closing the day…',
    noPlatform: 'The day can’t be closed here: the warehouse program was started without the platform account (start it with --platform-url, --client-id and STATION_CLIENT_SECRET).',
    lastClose: 'Last close: {t}',
    cancelledLine: '{n} labels bought ahead were not used: cancelled, {eur} refunded',
    cancelledLineOne: '1 label bought ahead was not used: cancelled, {eur} refunded',
    cancelledNone: 'No label bought ahead was left unused',
    refusedLine: {
      invalid_state: 'Label ahead {tn} (order {order}) could not be cancelled: already handed over or in a manifest. Ask the carrier to void it, or claim it in the platform’s web panel.',
      not_found: 'Label ahead {tn} (order {order}) is unknown to the platform: check it in the platform’s web panel.',
      error: 'Label ahead {tn} (order {order}) was not cancelled now ({message}): close again later.',
    },
    manifestLine: 'Manifest {id} · {contract}: {n} shipments',
    manifestLineOne: 'Manifest {id} · {contract}: 1 shipment',
    manifestAlready: '{contract}: {n} shipments were in a manifest already',
    manifestFailed: '{contract}: {n} shipments not in a manifest ({message}); they go in the next close',
    noManifest: 'No printed shipment waited for a manifest',
    offlineLine: '{name} is offline (last seen {t}): its {n} shipments wait for the next close',
    offlineLineOne: '{name} is offline (last seen {t}): its shipment waits for the next close',
    offlineLineNone: '{name} is offline (last seen {t}): what it shipped and has not sent yet goes in the next close',
    closedAt: '{t} by {who}',
    closedAtBench: '{t} at {bench}',
    labelWaitToday: 'Packers’ label wait today',
    labelWaitTodayNone: 'no label today',
    aheadWaiting: 'Labels ahead now',
    aheadWaitingLine: '{waiting} bought and waiting · {batched} in batches to print',
    aheadToday: 'Labels ahead today',
    aheadTodayLine: '{bought} bought · {printed} printed · {used} used',
    aheadCancelled: 'Labels ahead cancelled today',
    aheadCancelledLine: '{n} cancelled · {eur} refunded',
    aheadCancelledLineOne: '1 cancelled · {eur} refunded',
  },
  it: {
    settingsTitle: 'Etichette in anticipo',
    enabled: 'Compra le etichette in anticipo nei minuti tranquilli',
    rules: 'Per quali regole',
    rulesAll: 'Ogni regola che spedisce da sola',
    rulesChosen: 'Solo le regole scelte',
    noRules: 'Nessuna regola è ancora condivisa in questo magazzino',
    shipsByItself: 'spedisce da sola',
    horizon: 'Con quanto anticipo',
    horizonToday: 'Ordini importati oggi',
    horizonHours: 'Ordini importati nelle ultime',
    hours: 'ore',
    headroom: 'Etichette al minuto lasciate agli operatori',
    headroomHint: 'delle 30 dell’account',
    faceDown: 'La stampante dei lotti impila le etichette a faccia in giù (stampa prima l’ultima)',
    save: 'Salva',
    saved: 'Salvato',
    refused: 'Non salvato: {message}',
    batchTitle: 'Stampa in lotto le etichette in anticipo',
    selection: 'Quali etichette',
    selectionKind: { single: 'Ordini di un solo articolo', sku: 'Uno SKU', shop: 'Un negozio', all: 'Tutte' },
    selectionLine: { single: 'ordini di un solo articolo', sku: 'SKU {v}', shop: 'negozio {v}', all: 'tutte' },
    bench: 'Al banco',
    offlineBench: '{name} (non in linea)',
    noBench: 'Nessun banco è acceso',
    print: 'Stampa',
    waitingLine: '{n} etichette comprate in anticipo in attesa ({single} di ordini di un solo articolo)',
    waitingLineOne: '1 etichetta comprata in anticipo in attesa ({single} di ordini di un solo articolo)',
    noneWaiting: 'nessuna in attesa',
    fieldRefused: {
      enabled: 'scegli se comprare le etichette in anticipo',
      rules: 'scegli almeno una regola tra quelle del magazzino, o ogni regola che spedisce da sola',
      horizonHours: 'le ore vanno da 1 a 720 (un numero intero)',
      headroom: 'le etichette al minuto lasciate agli operatori vanno da 0 a 29 (delle 30 dell’account)',
      faceDown: 'scegli se la stampante impila a faccia in giù',
    },
    batchRefused: {
      bench_offline: 'Il banco scelto non è in linea: scegline uno acceso',
      nothing_to_print: 'Nessuna etichetta comprata in anticipo attende un ordine di questa scelta',
    },
    batchMade: 'Lotto {id}: {n} etichette inviate a {bench}',
    batches: 'Lotti',
    noBatches: 'Nessun lotto stampato finora',
    batchLine: 'Lotto {id} · {selection} · {bench} · {printed} di {n} stampate · {state} · {t}',
    batchState: { waiting: 'in attesa del banco', printing: 'in stampa', printed: 'stampato', failed: 'non riuscito' },
    pickList: 'Lista di prelievo (PDF)',
    closeTitle: 'Chiudi la giornata',
    closeHint: 'Una volta per tutto il magazzino: le etichette comprate in anticipo e non stampate vengono annullate, poi una distinta per contratto con ogni spedizione stampata.',
    closeButton: 'Chiudi la giornata del magazzino',
    closeConfirm: 'Chiudere ora la giornata per tutti i banchi?',
    closeCancel: 'Non ora',
    closing: 'Chiusura della giornata…',
    noPlatform: 'La giornata non si può chiudere qui: il programma del magazzino è stato avviato senza l’account della piattaforma (avvialo con --platform-url, --client-id e STATION_CLIENT_SECRET).',
    lastClose: 'Ultima chiusura: {t}',
    cancelledLine: '{n} etichette comprate in anticipo non sono state usate: annullate, {eur} rimborsati',
    cancelledLineOne: '1 etichetta comprata in anticipo non è stata usata: annullata, {eur} rimborsati',
    cancelledNone: 'Nessuna etichetta comprata in anticipo è rimasta inutilizzata',
    refusedLine: {
      invalid_state: 'L’etichetta in anticipo {tn} (ordine {order}) non si può annullare: già consegnata al corriere o in una distinta. Chiedi al corriere di annullarla, o chiedi il rimborso nel pannello web della piattaforma.',
      not_found: 'L’etichetta in anticipo {tn} (ordine {order}) non è nota alla piattaforma: controllala nel pannello web della piattaforma.',
      error: 'L’etichetta in anticipo {tn} (ordine {order}) non è stata annullata ora ({message}): chiudi di nuovo più tardi.',
    },
    manifestLine: 'Distinta {id} · {contract}: {n} spedizioni',
    manifestLineOne: 'Distinta {id} · {contract}: 1 spedizione',
    manifestAlready: '{contract}: {n} spedizioni erano già in una distinta',
    manifestFailed: '{contract}: {n} spedizioni non in distinta ({message}); vanno nella prossima chiusura',
    noManifest: 'Nessuna spedizione stampata attendeva una distinta',
    offlineLine: '{name} non è in linea (visto l’ultima volta {t}): le sue {n} spedizioni attendono la prossima chiusura',
    offlineLineOne: '{name} non è in linea (visto l’ultima volta {t}): la sua spedizione attende la prossima chiusura',
    offlineLineNone: '{name} non è in linea (visto l’ultima volta {t}): ciò che ha spedito e non ha ancora inviato va nella prossima chiusura',
    closedAt: '{t} da {who}',
    closedAtBench: '{t} al banco {bench}',
    labelWaitToday: 'Attesa delle etichette degli operatori oggi',
    labelWaitTodayNone: 'nessuna etichetta oggi',
    aheadWaiting: 'Etichette in anticipo ora',
    aheadWaitingLine: '{waiting} comprate e in attesa · {batched} in lotti da stampare',
    aheadToday: 'Etichette in anticipo oggi',
    aheadTodayLine: '{bought} comprate · {printed} stampate · {used} usate',
    aheadCancelled: 'Etichette in anticipo annullate oggi',
    aheadCancelledLine: '{n} annullate · {eur} rimborsati',
    aheadCancelledLineOne: '1 annullata · {eur} rimborsati',
  },
};

/** EUR the language's way: `€58.20`, `58,20 €`. */
export const euros = (n: number, language: Language): string => new Intl.NumberFormat(language === 'it' ? 'it-IT' : 'en-GB', { style: 'currency', currency: 'EUR' }).format(n);

/** A count the language's way (`1,234`, `1.234`). */
const count = (n: number, language: Language): string => new Intl.NumberFormat(language === 'it' ? 'it-IT' : 'en-GB').format(n);

/** A time (ISO) as `dd/mm HH:MM` Europe/Rome. */
const at = (iso: string, language: Language): string =>
  new Date(iso).toLocaleString(language === 'it' ? 'it-IT' : 'en-GB', { day: '2-digit', month: '2-digit', hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Rome' });

/** The close in sentences of `language`: the labels ahead cancelled and refunded, the refused cancels, the manifests per contract, the offline benches. */
export function closeSaid(c: CloseResult, language: Language): string[] {
  const w = AHEAD_WORDS[language];
  const lines = [c.cancelled > 0 ? fill(c.cancelled === 1 ? w.cancelledLineOne : w.cancelledLine, { n: count(c.cancelled, language), eur: euros(c.refunded, language) }) : w.cancelledNone];
  for (const r of c.cancelRefused) lines.push(fill(w.refusedLine[r.reason], { tn: r.trackingNumber, order: r.orderKey, message: r.message }));
  if (c.manifests.length === 0) lines.push(w.noManifest);
  for (const m of c.manifests) {
    const v = { id: m.manifestId ?? '', contract: m.contractName ?? (m.contractCode || '—'), n: count(m.shipments, language), message: m.error ?? '' };
    lines.push(fill(m.error ? w.manifestFailed : m.already ? w.manifestAlready : m.shipments === 1 ? w.manifestLineOne : w.manifestLine, v));
  }
  for (const b of c.offlineBenches) lines.push(fill(b.waiting === 0 ? w.offlineLineNone : b.waiting === 1 ? w.offlineLineOne : w.offlineLine, { name: b.name, t: at(b.lastSeen, language), n: count(b.waiting, language) }));
  return lines;
}
