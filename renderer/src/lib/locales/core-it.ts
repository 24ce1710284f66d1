/**
 * Italian of the texts the core makes (issue 25: printer errors of the socket and USB transports,
 * print-job notes, outbox messages), merged into ./it.ts as `coreText` (with `secretStore` and
 * `shipmentStatus`; the English is ./core-en.ts). The keys and placeholders
 * are those of shared/contract/core-text.ts `CORE_TEXTS_EN` (the English locale is that table),
 * checked by test/unit/renderer/core-text.test.ts.
 */
import type { CoreTextKey } from '../../../../shared/contract/core-text';

const texts: Record<CoreTextKey, string> = {
  printerClosed: 'La stampante {{where}} è stata chiusa',
  socketRefused: 'La stampante {{where}} ha rifiutato la connessione (è accesa? la porta è giusta?)',
  socketUnreachableConnecting: 'La stampante {{where}} non è raggiungibile durante la connessione ({{code}})',
  socketUnreachableSending: 'La stampante {{where}} non è raggiungibile durante l’invio ({{code}})',
  socketTimedOutConnecting: 'La stampante {{where}} non ha risposto in tempo durante la connessione ({{code}})',
  socketTimedOutSending: 'La stampante {{where}} non ha risposto in tempo durante l’invio ({{code}})',
  socketDroppedConnecting: 'La stampante {{where}} ha chiuso la connessione durante la connessione ({{code}})',
  socketDroppedSending: 'La stampante {{where}} ha chiuso la connessione durante l’invio ({{code}})',
  socketFailedConnecting: 'Errore della stampante {{where}} durante la connessione: {{reason}}',
  socketFailedSending: 'Errore della stampante {{where}} durante l’invio: {{reason}}',
  socketNoConnection: 'Nessuna connessione alla stampante {{where}} entro {{ms}} ms',
  socketClosedEarly: 'La stampante {{where}} ha chiuso la connessione prima che il lavoro fosse inviato',
  socketNoData: 'La stampante {{where}} non ha accettato dati per {{ms}} ms ({{sent}} di {{total}} byte inviati)',
  usbNotConnected: '{{name}} non è collegata ({{uri}}): collegala e accendila',
  usbUnplugged: '{{name}} è stata scollegata',
  usbCannotOpen: 'Impossibile aprire {{name}} ({{where}}): {{reason}}',
  usbBusy: 'Impossibile usare {{name}} ({{where}}): un altro programma la sta usando (chiudi il programma del produttore o ferma la sua coda CUPS)',
  usbCannotClaim: 'Impossibile usare {{name}} ({{where}}): {{reason}}',
  usbNoBulkOut: '{{name}} non ha un’uscita bulk OUT sulla sua interfaccia di stampa',
  usbUnpluggedDuringJob: '{{name}} è stata scollegata durante la stampa ({{sent}} di {{total}} byte inviati)',
  usbNoData: '{{name}} non ha accettato dati per {{ms}} ms ({{sent}} di {{total}} byte inviati)',
  usbStalled: '{{name}} ha bloccato il trasferimento ({{sent}} di {{total}} byte inviati): guarda il display della stampante',
  usbFailedDuringJob: 'Errore di {{name}} durante la stampa ({{sent}} di {{total}} byte inviati): {{reason}}',
  usbNotOpen: '{{name}} non è aperta',
  queueNoPdf: 'Coda {{queue}}: le liste di imballo A4 (PDF) non si possono mandare a una coda di stampa di Windows; salvale in una cartella (file://) o usa una stampante per ricevute',
  queueNoAnswer: 'Lo spooler di stampa non ha preso il lavoro per {{queue}} entro {{ms}} ms',
  queueRefused: 'La coda di stampa {{queue}} ha rifiutato il lavoro: {{reason}}',
  queueNotInstalled: 'Impossibile stampare sulla coda {{queue}}: {{command}} non è installato',
  queueFailed: 'Impossibile stampare sulla coda {{queue}}: {{reason}}',
  printerNotSaved: 'Stampante {{uri}} non salvata: {{detail}}',
  printerNoStatus: 'La stampante {{uri}} non ha risposto alla richiesta di stato entro {{ms}} ms',
  folderCannotWrite: 'Impossibile scrivere l’etichetta nella cartella {{dir}}: {{reason}}',
  jobInterrupted: 'Interrotta durante la stampa: ristampa se l’etichetta non è uscita',
  jobWaiting: 'In attesa: {{error}}',
  jobWaitingPrinter: 'In attesa: stampante {{state}} — {{detail}}',
  jobInPrinterWaiting: 'Nella stampante, in attesa: stampante {{state}} — {{detail}}',
  jobWentOff: 'printer_unreachable: la stampante si è spenta prima di confermare l’etichetta ({{detail}}): ristampa se non è uscita nessuna etichetta',
  jobLabelGone: 'not_found_locally: l’etichetta di questo lavoro non c’è più',
  jobRulePrinterUnusable: 'printer_error: la stampante della regola {{uri}} non si può usare: {{reason}}',
  jobCannotConvert: 'printer_error: l’etichetta non si può convertire per la stampante: {{reason}}',
  jobFailed: '{{code}}: {{error}}',
  jobFailedPartial: '{{code}}: {{error}}; parte dell’etichetta potrebbe essere stata stampata: ristampa se non è uscita',
  outboxInterrupted: 'La stazione si è fermata mentre inviava questa richiesta',
  platformNoAnswer: 'Nessuna risposta dalla piattaforma entro {{ms}} ms ({{route}})',
  platformUnreachable: 'Piattaforma non raggiungibile ({{route}}): {{reason}}',
  rateWindowFull: 'La piattaforma accetta {{perMinute}} richieste {{route}} al minuto; la prossima può partire tra {{seconds}} s',
  rateWindowWait: '{{reason}}. Questa richiesta è in coda e parte da sola alle {{at}} UTC.',
  shipmentNoRecipient: 'Alla spedizione mancano nome, CAP o paese del destinatario: spedisci di nuovo l’ordine dalla schermata Spedisci',
  pickupMaybeBooked:
    'Un tentativo precedente di prenotare questo ritiro potrebbe essere andato a buon fine: esistono {{count}} ritiri per {{contract}} il {{date}}. Controlla l’elenco dei ritiri prima di prenotare di nuovo.',
  stockHasInstructions: 'Giacenza {{id}} ({{trackingNumber}}): le istruzioni «{{current}}» sono già registrate; «{{action}}» non è stata inviata. Controlla la giacenza prima di dare nuove istruzioni.',
  stockNotOpen: 'Giacenza {{id}} ({{trackingNumber}}): la giacenza è {{status}}; «{{action}}» non è stata inviata. Controlla la giacenza prima di dare nuove istruzioni.',
  shipmentChecking:
    'Nessuna risposta ancora alla spedizione inviata alle {{sentAt}} UTC (riferimento {{reference}}): la stazione controlla la piattaforma fino alle {{until}} UTC. Non spedire di nuovo questo ordine.',
  shipmentElsewhereOne: 'La piattaforma ha la spedizione {{which}} con riferimento {{reference}}, ma questo ordine va a {{recipient}}: la stazione non l’ha presa come spedizione di questo ordine.',
  shipmentElsewhereMany: 'La piattaforma ha le spedizioni {{which}} con riferimento {{reference}}, ma questo ordine va a {{recipient}}: la stazione non le ha prese come spedizioni di questo ordine.',
  shipmentNoAnswerElsewhere:
    'La spedizione inviata alle {{sentAt}} UTC (riferimento {{reference}}) non ha avuto risposta, e dopo {{seconds}} s la piattaforma non mostra spedizioni con questo riferimento per questo destinatario. {{conflict}} Controlla le spedizioni sulla piattaforma; se non c’è, scegli «Invia di nuovo» nella Coda (F7).',
  shipmentElsewhereCheck:
    '{{conflict}} Se quel collo è di questo ordine (inviato a un vecchio indirizzo), annullalo o ristampalo dalla piattaforma; se non lo è, scegli «Invia di nuovo» nella Coda (F7).',
  shipmentNoAnswer:
    'La spedizione inviata alle {{sentAt}} UTC (riferimento {{reference}}) non ha avuto risposta, e dopo {{seconds}} s la piattaforma non mostra spedizioni con questo riferimento. Controlla le spedizioni sulla piattaforma; se non c’è, scegli «Invia di nuovo» nella Coda (F7).',
  claimedBy: 'L’ordine {{order}} è in imballaggio al {{bench}}, operatore {{packer}}, dalle {{time}}',
  claimedByBench: 'L’ordine {{order}} è in imballaggio al {{bench}} dalle {{time}}',
  claimedOffline: 'L’ordine {{order}} non si spedisce qui: il magazzino non è raggiungibile dalle {{time}} e questo banco non ha l’ordine in carico',
  warehouseReadOnly: 'Il magazzino non è raggiungibile dalle {{time}}: le impostazioni condivise sono in sola lettura finché non torna',
  warehouseNoAnswer: 'Il magazzino non ha risposto ({{reason}}): non è stato cambiato nulla',
  sharedChangedElsewhere: 'Modificata al {{bench}} alle {{time}} mentre la stavi cambiando: è stata ricaricata, ripeti la modifica',
  sharedChangedElsewhereBy: 'Modificata al {{bench}} da {{packer}} alle {{time}} mentre la stavi cambiando: è stata ricaricata, ripeti la modifica',
};

/** The sections of ./it.ts this file holds: `coreText`, where the client secret is kept, the shipment statuses by their keys. */
export const coreIt = {
  coreText: texts,
  secretStore: { keyring: 'Portachiavi del sistema ({{lib}})', safeStorage: 'Electron safeStorage', safeStorageOf: 'Electron safeStorage ({{backend}})', none: 'nessuno ({{why}}): STATION_CLIENT_SECRET dall’ambiente' },
  shipmentStatus: {
    processing: 'In lavorazione',
    shipped: 'Spedita',
    in_transit: 'In transito',
    out_for_delivery: 'In consegna',
    delivered: 'Consegnata',
    held_at_depot: 'In giacenza',
    returned_to_sender: 'Resa al mittente',
    undelivered: 'Non consegnata',
    awaiting_instructions: 'In attesa di istruzioni',
    awaiting_collection: 'In attesa di ritiro',
  },
};
