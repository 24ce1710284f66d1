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
  /** The platform's events (issue 44 item 5) and the account's budget (issue 43 item 6): ./platform-panel.ts. */
  platform: PlatformWords;
}

/** A delivery exception's status (schema 7 delivery_exceptions.status_key). */
export type ExceptionKind = 'held_at_depot' | 'undelivered' | 'returned_to_sender' | 'awaiting_instructions' | 'awaiting_collection';

/** The words of the platform's panels; `{x}` placeholders are filled by the page. */
interface PlatformWords {
  held: string;
  /** A held parcel: order, tracking number, carrier, packer ({@link heldPacker} filled or ''), days held. */
  heldLine: string;
  heldPacker: string;
  heldDays: Readonly<Record<'zero' | 'one' | 'other', string>>;
  instructed: string;
  exceptions: string;
  exceptionKind: Readonly<Record<ExceptionKind, string>>;
  perDay: string;
  carrier: string;
  total: string;
  openNow: string;
  exceptionLine: string;
  lastEvent: string;
  noExceptions: string;
  endpoint: string;
  address: string;
  active: string;
  activeYes: string;
  activeUnknown: string;
  deactivated: string;
  noEndpoint: string;
  noPlatform: string;
  deliveries: string;
  deliveryOk: string;
  deliveryFailed: string;
  noAnswer: string;
  noDeliveries: string;
  test: string;
  testLimit: string;
  testDelivered: string;
  testNotDelivered: string;
  testTooMany: string;
  testRefused: string;
  catchUp: string;
  catchUpFailed: string;
  budget: string;
  labels: string;
  quotes: string;
  ofLimit: string;
  queue: string;
  queueLine: string;
  labelWait: string;
  labelWaitLine: string;
  labelWaitNone: string;
  refusals: string;
  unknown: string;
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
    platform: {
      held: 'Parcels held at the depot',
      heldLine: '{order} · {tn} · {carrier}{packer} · {days}',
      heldPacker: ' · packed by {p}',
      heldDays: { zero: 'held since today', one: 'held 1 day', other: 'held {n} days' },
      instructed: 'instructions given',
      exceptions: 'Delivery exceptions',
      exceptionKind: { held_at_depot: 'Held', undelivered: 'Undelivered', returned_to_sender: 'Returned', awaiting_instructions: 'Awaiting instructions', awaiting_collection: 'Awaiting collection' },
      perDay: 'Begun per day and carrier (last 7 days)',
      carrier: 'Carrier',
      total: 'Total',
      openNow: 'Open now',
      exceptionLine: '{status} · {order} · {tn} · {carrier} · since {t}',
      lastEvent: 'last carrier event: {e}',
      noExceptions: 'No delivery exceptions in the last 7 days.',
      endpoint: 'The platform’s events',
      address: 'Address',
      active: 'At the platform',
      activeYes: 'active',
      activeUnknown: 'not known now ({problem})',
      deactivated: 'The platform has deactivated this address after 72 hours without an answer: check that it reaches the warehouse, then start the warehouse program again with --public-url to register it anew.',
      noEndpoint: 'No public address: events come by the catch-up alone.',
      noPlatform: 'The warehouse program was started without the platform account: no events and no catch-up.',
      deliveries: 'Recent deliveries',
      deliveryOk: 'delivered ({code})',
      deliveryFailed: 'failed ({code})',
      noAnswer: 'no answer',
      noDeliveries: 'No deliveries yet.',
      test: 'Send a test event',
      testLimit: 'The platform allows 5 tests a minute.',
      testDelivered: 'Test event delivered: the warehouse answered {code}.',
      testNotDelivered: 'Test event not delivered: {code}.',
      testTooMany: 'The platform allows 5 tests a minute: try again in {s} s.',
      testRefused: 'The platform refused the test: {message}',
      catchUp: 'Last catch-up with the platform at {t}: {found} found, {stored} new.',
      catchUpFailed: 'The last catch-up with the platform, at {t}, failed: {problem}',
      budget: 'The platform account’s budget',
      labels: 'Labels this minute',
      quotes: 'Quotes this minute',
      ofLimit: '{used} of {limit}',
      queue: 'Waiting for a slot',
      queueLine: 'labels {labels} · quotes {quotes} · other {other}',
      labelWait: 'Packers’ label wait (last 10 minutes)',
      labelWaitLine: 'p50 {p50} · p95 {p95} ({n} labels)',
      labelWaitNone: 'no label in the last 10 minutes',
      refusals: 'Platform’s 429 answers today',
      unknown: '—',
    },
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
    platform: {
      held: 'Colli in giacenza',
      heldLine: '{order} · {tn} · {carrier}{packer} · {days}',
      heldPacker: ' · imballato da {p}',
      heldDays: { zero: 'in giacenza da oggi', one: 'in giacenza da 1 giorno', other: 'in giacenza da {n} giorni' },
      instructed: 'istruzioni date',
      exceptions: 'Eccezioni di consegna',
      exceptionKind: { held_at_depot: 'In giacenza', undelivered: 'Non consegnati', returned_to_sender: 'Resi al mittente', awaiting_instructions: 'In attesa di istruzioni', awaiting_collection: 'In attesa di ritiro' },
      perDay: 'Iniziate per giorno e corriere (ultimi 7 giorni)',
      carrier: 'Corriere',
      total: 'Totale',
      openNow: 'Aperte ora',
      exceptionLine: '{status} · {order} · {tn} · {carrier} · dalle {t}',
      lastEvent: 'ultimo evento del corriere: {e}',
      noExceptions: 'Nessuna eccezione di consegna negli ultimi 7 giorni.',
      endpoint: 'Eventi della piattaforma',
      address: 'Indirizzo',
      active: 'Sulla piattaforma',
      activeYes: 'attivo',
      activeUnknown: 'non noto ora ({problem})',
      deactivated: 'La piattaforma ha disattivato questo indirizzo dopo 72 ore senza risposta: controlla che raggiunga il magazzino, poi riavvia il programma del magazzino con --public-url per registrarlo di nuovo.',
      noEndpoint: 'Nessun indirizzo pubblico: gli eventi arrivano solo dal recupero periodico.',
      noPlatform: 'Il programma del magazzino è stato avviato senza l’account della piattaforma: nessun evento e nessun recupero.',
      deliveries: 'Invii recenti',
      deliveryOk: 'consegnato ({code})',
      deliveryFailed: 'non riuscito ({code})',
      noAnswer: 'nessuna risposta',
      noDeliveries: 'Nessun invio per ora.',
      test: 'Invia un evento di prova',
      testLimit: 'La piattaforma consente 5 prove al minuto.',
      testDelivered: 'Evento di prova consegnato: il magazzino ha risposto {code}.',
      testNotDelivered: 'Evento di prova non consegnato: {code}.',
      testTooMany: 'La piattaforma consente 5 prove al minuto: riprova tra {s} s.',
      testRefused: 'La piattaforma ha rifiutato la prova: {message}',
      catchUp: 'Ultimo recupero dalla piattaforma alle {t}: {found} trovati, {stored} nuovi.',
      catchUpFailed: 'L’ultimo recupero dalla piattaforma, alle {t}, non è riuscito: {problem}',
      budget: 'Budget dell’account della piattaforma',
      labels: 'Etichette in questo minuto',
      quotes: 'Preventivi in questo minuto',
      ofLimit: '{used} su {limit}',
      queue: 'In attesa di un turno',
      queueLine: 'etichette {labels} · preventivi {quotes} · altro {other}',
      labelWait: 'Attesa delle etichette degli operatori (ultimi 10 minuti)',
      labelWaitLine: 'p50 {p50} · p95 {p95} ({n} etichette)',
      labelWaitNone: 'nessuna etichetta negli ultimi 10 minuti',
      refusals: 'Risposte 429 della piattaforma oggi',
      unknown: '—',
    },
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
