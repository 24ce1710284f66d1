/**
 * Every word of the supervisor's page (issue 35 item 5, issue 42 items 2, 3 and 5), in its two languages,
 * and the page's Italian for what benches send in English: a printer's name (the bench's English name of its
 * transport, core/printing/transports/uri.ts `describePrinter`: "Folder /srv/labels") and what a refused
 * write was (core/warehouse/link.ts: "claim Bottega#1047"). Italian agrees with its noun: a printer
 * (stampante) is feminine, a bench (banco), an order (ordine) and a packer (operatore) masculine.
 */

/** The page's languages. */
export type Language = 'it' | 'en';

/** The words of one language; `{x}` placeholders are filled by the page. */
export interface PageWords {
  title: string;
  language: string;
  signInTitle: string;
  pin: string;
  badge: string;
  signIn: string;
  signOut: string;
  refused: string;
  locked: string;
  benches: string;
  attention: string;
  nothing: string;
  offline: string;
  offlineSince: string;
  printers: string;
  refusedRequests: string;
  refusedLine: string;
  warehouseRefusals: string;
  warehouseRefusalsNote: string;
  /** A refused write; the page adds its SQLSTATE in brackets when the bench sent one. */
  refusalLine: string;
  labelsHeld: string;
  labelsHeldLine: string;
  printerState: Readonly<Record<'ready' | 'paper_out' | 'head_open' | 'paused' | 'error' | 'unreachable' | 'unknown', string>>;
  verifyMismatches: string;
  oldClaims: string;
  /** An old claim: `{packer}` is {@link claimPacker} filled, or '' when the claim names no packer. */
  claimLine: string;
  claimPacker: string;
  release: string;
  released: string;
  perBench: string;
  perPacker: string;
  report: string;
  day: string;
  dayPrevious: string;
  dayNext: string;
  /** The day field's format, as its placeholder. */
  dayFormat: string;
  dayBadFormat: string;
  dayNoSuch: string;
  dayAfterToday: string;
  stale: string;
  state: Readonly<Record<'idle' | 'packing' | 'offline', string>>;
  /** An offline bench's card: its last heartbeat (`{t}`) and how long ago (`{ago}`: `45 s`, `7 min`). */
  lastKnownAt: string;
  packer: string;
  order: string;
  printer: string;
  queue: string;
  refusedShort: string;
  /** The rows of an offline card, marked as what the bench said last. */
  lastKnown: Readonly<Record<'packer' | 'order' | 'printer' | 'queue' | 'refused', string>>;
  lastLabel: string;
  none: string;
  by: string;
  hour: string;
  shipments: string;
  signedInAs: string;
  /** A printer's kind before what it is (`Folder {what}`), as the bench's screens say it. */
  printerName: Readonly<Record<PrinterKind, string>>;
  /** What a refused write was (see {@link refusedWhat}). */
  refusedWhat: Readonly<Record<RefusedKind, string>>;
}

/** The kinds of a printer's name (shared/contract/views.ts PrinterNameParts). */
type PrinterKind = 'network' | 'usb' | 'queue' | 'folder';
/** The writes a bench names when the warehouse refuses one. */
type RefusedKind = 'ship' | 'import' | 'activityRow' | 'activity' | 'claim' | 'release';

/** The page's words in English and Italian. */
export const WORDS: Readonly<Record<Language, PageWords>> = {
  en: {
    title: 'Warehouse floor',
    language: 'Language',
    signInTitle: 'Supervisor sign-in',
    pin: 'PIN',
    badge: 'or scan your badge',
    signIn: 'Sign in',
    signOut: 'Sign out',
    refused: 'Not a supervisor of this warehouse.',
    locked: 'Too many wrong tries: wait a minute.',
    benches: 'Benches',
    attention: 'Needs attention',
    nothing: 'Nothing needs attention.',
    offline: 'Benches offline',
    offlineSince: 'silent since {t}',
    printers: 'Printers that cannot print',
    refusedRequests: 'Refused requests',
    refusedLine: '{bench}: {n} waiting for the packer',
    warehouseRefusals: 'Writes the warehouse database refused',
    warehouseRefusalsNote: 'The database answered no: these did not reach the warehouse. The bench keeps working.',
    refusalLine: '{t} · {what}: the database said “{message}”',
    labelsHeld: 'Labels held: longer than the labels loaded',
    labelsHeldLine: '{bench}: {n} (load longer labels there, or print them shrunk)',
    printerState: { ready: 'ready', paper_out: 'out of paper', head_open: 'head open', paused: 'paused', error: 'error', unreachable: 'unreachable', unknown: 'unknown' },
    verifyMismatches: 'Verify mismatches today',
    oldClaims: 'Orders claimed for more than 15 minutes',
    claimLine: '{order} at {bench}{packer}, for {m} min',
    claimPacker: ' by {p}',
    release: 'Release',
    released: 'Released {order}.',
    perBench: 'Shipments per hour per bench (today)',
    perPacker: 'Shipments per hour per packer (today)',
    report: 'Day report of the whole warehouse',
    day: 'Day',
    dayPrevious: 'Previous day',
    dayNext: 'Next day',
    dayFormat: 'YYYY-MM-DD',
    dayBadFormat: 'Day: write it as YYYY-MM-DD, for example {example}.',
    dayNoSuch: 'Day: {text} is not a day of the calendar.',
    dayAfterToday: 'Day: {text} has not come yet; today is {today}.',
    stale: 'The warehouse database does not answer: figures from {t}.',
    state: { idle: 'idle', packing: 'packing', offline: 'offline' },
    lastKnownAt: 'Last heartbeat {t}, {ago} ago',
    packer: 'Packer',
    order: 'Order',
    printer: 'Printer',
    queue: 'Queue',
    refusedShort: 'Refused',
    lastKnown: { packer: 'Packer (last known)', order: 'Order (last known)', printer: 'Printer (last known)', queue: 'Queue (last known)', refused: 'Refused (last known)' },
    lastLabel: 'Last label',
    none: '—',
    by: ' by {p}',
    hour: 'Hour',
    shipments: 'Shipments',
    signedInAs: 'Signed in: {n}',
    printerName: { network: 'Network printer {what}', usb: 'USB printer {what}', queue: 'Print queue {what}', folder: 'Folder {what}' },
    refusedWhat: { ship: 'marking {x} shipped', import: 'importing {x}', activityRow: 'activity row {x}', activity: 'activity', claim: 'claiming {x}', release: 'releasing {x}' },
  },
  it: {
    title: 'Magazzino',
    language: 'Lingua',
    signInTitle: 'Accesso del responsabile',
    pin: 'PIN',
    badge: 'oppure leggi il tuo badge',
    signIn: 'Entra',
    signOut: 'Esci',
    refused: 'Non è un responsabile di questo magazzino.',
    locked: 'Troppi tentativi sbagliati: attendi un minuto.',
    benches: 'Banchi',
    attention: 'Da controllare',
    nothing: 'Niente da controllare.',
    offline: 'Banchi non collegati',
    offlineSince: 'in silenzio dalle {t}',
    printers: 'Stampanti che non stampano',
    refusedRequests: 'Richieste rifiutate',
    refusedLine: '{bench}: {n} in attesa dell’operatore',
    warehouseRefusals: 'Scritture rifiutate dal database del magazzino',
    warehouseRefusalsNote: 'Il database ha risposto di no: questi dati non sono arrivati al magazzino. Il banco continua a lavorare.',
    refusalLine: '{t} · {what}: il database ha risposto «{message}»',
    labelsHeld: 'Etichette trattenute: più lunghe di quelle caricate',
    labelsHeldLine: '{bench}: {n} (carica lì etichette più lunghe, o stampale ridotte)',
    // La stampante: aggettivi al femminile.
    printerState: { ready: 'pronta', paper_out: 'senza carta', head_open: 'testina aperta', paused: 'in pausa', error: 'in errore', unreachable: 'non raggiungibile', unknown: 'sconosciuta' },
    verifyMismatches: 'Verifiche non corrispondenti oggi',
    oldClaims: 'Ordini presi da più di 15 minuti',
    claimLine: '{order} al {bench}{packer} da {m} min',
    claimPacker: ' ({p})',
    release: 'Libera',
    released: '{order} liberato.',
    perBench: 'Spedizioni per ora per banco (oggi)',
    perPacker: 'Spedizioni per ora per operatore (oggi)',
    report: 'Rapporto del giorno di tutto il magazzino',
    day: 'Giorno',
    dayPrevious: 'Giorno precedente',
    dayNext: 'Giorno successivo',
    dayFormat: 'gg/mm/aaaa',
    dayBadFormat: 'Giorno: scrivilo come gg/mm/aaaa, per esempio {example}.',
    dayNoSuch: 'Giorno: il {text} non è un giorno del calendario.',
    dayAfterToday: 'Giorno: il {text} non è ancora arrivato; oggi è il {today}.',
    stale: 'Il database del magazzino non risponde: dati delle {t}.',
    state: { idle: 'libero', packing: 'in lavorazione', offline: 'non collegato' },
    lastKnownAt: 'Ultimo segnale {t}, {ago} fa',
    packer: 'Operatore',
    order: 'Ordine',
    printer: 'Stampante',
    queue: 'In coda',
    refusedShort: 'Rifiutate',
    lastKnown: { packer: 'Operatore (ultimo noto)', order: 'Ordine (ultimo noto)', printer: 'Stampante (ultima nota)', queue: 'In coda (ultimo dato)', refused: 'Rifiutate (ultimo dato)' },
    lastLabel: 'Ultima etichetta',
    none: '—',
    by: ' da {p}',
    hour: 'Ora',
    shipments: 'Spedizioni',
    signedInAs: 'Connesso: {n}',
    printerName: { network: 'Stampante di rete {what}', usb: 'Stampante USB {what}', queue: 'Coda di stampa {what}', folder: 'Cartella {what}' },
    refusedWhat: { ship: 'spedizione di {x}', import: 'importazione di {x}', activityRow: 'riga di attività {x}', activity: 'attività', claim: 'presa in carico di {x}', release: 'rilascio di {x}' },
  },
};

/** Fills `{name}` placeholders of `template` with `values` (a missing value: empty). */
export const fill = (template: string, values: Readonly<Record<string, string | number>>): string => template.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? ''));

/** The English kinds a bench's printer name starts with (core/printing/transports/uri.ts ENGLISH_KIND). */
const ENGLISH_PRINTER_KINDS: ReadonlyArray<readonly [string, PrinterKind]> = [
  ['Network printer ', 'network'],
  ['USB printer ', 'usb'],
  ['Print queue ', 'queue'],
  ['Folder ', 'folder'],
];

/**
 * A bench's printer name in the page's words: "Folder /srv/labels" is "Cartella /srv/labels" in Italian; a
 * name of another shape (a printer's own, or none) as the bench sent it.
 */
export function printerNameText(name: string, w: PageWords): string {
  for (const [prefix, kind] of ENGLISH_PRINTER_KINDS) if (name.startsWith(prefix)) return fill(w.printerName[kind], { what: name.slice(prefix.length) });
  return name;
}

/** How a bench names a refused write (core/warehouse/link.ts), longest first; the rest of `what` is its subject. */
const REFUSED_KINDS: ReadonlyArray<readonly [string, RefusedKind]> = [
  ['marking shipped ', 'ship'],
  ['ship ', 'ship'],
  ['importing ', 'import'],
  ['activity row ', 'activityRow'],
  ['claim ', 'claim'],
  ['release ', 'release'],
];

/** What a refused write was, in the page's words ("claim Bottega#1047": "prendere Bottega#1047"); an unknown kind as the bench said it. */
export function refusedWhat(what: string, w: PageWords): string {
  if (what === 'activity') return w.refusedWhat.activity;
  for (const [prefix, kind] of REFUSED_KINDS) if (what.startsWith(prefix)) return fill(w.refusedWhat[kind], { x: what.slice(prefix.length) });
  return what;
}
