/**
 * Texts the core makes for the packer (issue 25): printer errors of the
 * socket and USB transports, print-job notes and outbox messages. Each has a
 * key and values; the core writes the English message from
 * {@link CORE_TEXTS_EN} (the `message` of errors, logs and old clients,
 * unchanged), and sends the key and values beside it (`text`), so a screen
 * says it in the bench's language with the same details (the printer's
 * address, the byte counts, the reference). The screens' English locale is
 * this table itself (`coreText.<key>`); the Italian one is
 * renderer/src/lib/locales/core-it.ts.
 */
import type { StationText } from './views';

/** English of every core text, `{{name}}` placeholders (i18next's syntax). */
export const CORE_TEXTS_EN = {
  printerClosed: 'Printer {{where}} was closed',
  socketRefused: 'Printer {{where}} refused the connection (is it on, and is the port right?)',
  socketUnreachableConnecting: 'Printer {{where}} is unreachable while connecting ({{code}})',
  socketUnreachableSending: 'Printer {{where}} is unreachable while sending ({{code}})',
  socketTimedOutConnecting: 'Printer {{where}} timed out while connecting ({{code}})',
  socketTimedOutSending: 'Printer {{where}} timed out while sending ({{code}})',
  socketDroppedConnecting: 'Printer {{where}} dropped the connection while connecting ({{code}})',
  socketDroppedSending: 'Printer {{where}} dropped the connection while sending ({{code}})',
  socketFailedConnecting: 'Printer {{where}} failed while connecting: {{reason}}',
  socketFailedSending: 'Printer {{where}} failed while sending: {{reason}}',
  socketNoConnection: 'No connection to printer {{where}} within {{ms}} ms',
  socketClosedEarly: 'Printer {{where}} closed the connection before the job was sent',
  socketNoData: 'Printer {{where}} took no data for {{ms}} ms ({{sent}} of {{total}} bytes sent)',
  usbNotConnected: '{{name}} is not connected ({{uri}}); plug it in and switch it on',
  usbUnplugged: '{{name}} was unplugged',
  usbCannotOpen: 'Cannot open {{name}} ({{where}}): {{reason}}',
  usbBusy: 'Cannot claim {{name}} ({{where}}): another program is using it (close the vendor tool or stop its CUPS queue)',
  usbCannotClaim: 'Cannot claim {{name}} ({{where}}): {{reason}}',
  usbNoBulkOut: '{{name}} has no bulk OUT endpoint on its printer interface',
  usbUnpluggedDuringJob: '{{name}} was unplugged during the job ({{sent}} of {{total}} bytes sent)',
  usbNoData: '{{name}} took no data for {{ms}} ms ({{sent}} of {{total}} bytes sent)',
  usbStalled: "{{name}} stalled the transfer ({{sent}} of {{total}} bytes sent); check the printer's display",
  usbFailedDuringJob: '{{name}} failed during the job ({{sent}} of {{total}} bytes sent): {{reason}}',
  usbNotOpen: '{{name}} is not open',
  queueNoPdf: 'Queue {{queue}}: A4 slips (PDF) cannot be sent to a Windows print queue; save them to a folder (file://) or use a receipt printer',
  queueNoAnswer: 'The print spooler did not take the job for {{queue}} within {{ms}} ms',
  queueRefused: 'Print queue {{queue}} refused the job: {{reason}}',
  queueNotInstalled: 'Cannot print to queue {{queue}}: {{command}} is not installed',
  queueFailed: 'Cannot print to queue {{queue}}: {{reason}}',
  printerNotSaved: 'Printer {{uri}} not saved: {{detail}}',
  printerNoStatus: 'Printer {{uri}} did not answer a status query within {{ms}} ms',
  folderCannotWrite: 'Cannot write the label to folder {{dir}}: {{reason}}',
  jobInterrupted: 'interrupted while printing; reprint if the label did not come out',
  jobWaiting: 'Waiting: {{error}}',
  jobWaitingPrinter: 'Waiting: printer {{state}} — {{detail}}',
  jobInPrinterWaiting: 'In the printer, waiting: printer {{state}} — {{detail}}',
  jobWentOff: 'printer_unreachable: the printer went off before it confirmed the label ({{detail}}); reprint if no label came out',
  jobLabelGone: 'not_found_locally: the label of this job is gone',
  jobRulePrinterUnusable: "printer_error: the rule's printer {{uri}} cannot be used: {{reason}}",
  jobCannotConvert: 'printer_error: the label cannot be converted for the printer: {{reason}}',
  jobFailed: '{{code}}: {{error}}',
  jobHeldTooLong: 'This label is {{width}} × {{height}} in: load {{loadWidth}} × {{loadHeight}} in labels, or choose a printer profile for them',
  jobLongLabelSent: 'Longer than the labels loaded in {{from}}: sent to {{to}}, the shipping rule’s printer for long labels',
  jobPrintedShrunk: 'Printed shrunk to {{percent}} % at the packer’s word: the label is {{width}} × {{height}} in, longer than the labels loaded',
  jobPrintedShrunkToFit: 'Printed at {{percent}} % to fit the labels loaded, every barcode at least 90 % of its module',
  jobPrintedCut: 'Printed at 100 %: {{mm}} mm of text and lines past the end of the label left off',
  jobFailedPartial: '{{code}}: {{error}}; part of the label may have printed, reprint if it did not come out',
  outboxInterrupted: 'The station stopped while this request was being sent',
  platformNoAnswer: 'No answer from the platform within {{ms}} ms ({{route}})',
  platformUnreachable: 'Platform not reachable ({{route}}): {{reason}}',
  labelWaitsForBudget: 'Label in {{seconds}} s: the account’s {{perMinute}} labels a minute are in use ({{ahead}} before you)',
  labelWaitsForWindow: 'Label in {{seconds}} s: the account’s {{perMinute}} labels a minute are in use',
  rateWindowFull: 'The platform allows {{perMinute}} {{route}} requests a minute; the next one can leave in {{seconds}} s',
  rateWindowWait: '{{reason}}. This request is queued and leaves by itself at {{at}}.',
  shipmentNoRecipient: 'The shipment has no recipient name, postal code or country; ship the order again from the Ship screen',
  pickupMaybeBooked:
    'An earlier attempt to book this pickup may have gone through: {{count}} pickups for {{contract}} on {{date}} exist. Check the pickups list before booking again.',
  stockHasInstructions: 'Stock {{id}} ({{trackingNumber}}): instructions "{{current}}" are already registered; "{{action}}" was not sent. Check the stock before instructing again.',
  stockNotOpen: 'Stock {{id}} ({{trackingNumber}}): the stock is {{status}}; "{{action}}" was not sent. Check the stock before instructing again.',
  shipmentChecking:
    'No answer yet to the shipment sent at {{sentAt}} (reference {{reference}}); the station is checking the platform until {{until}}. Do not ship this order again.',
  shipmentElsewhereOne: "The platform has shipment {{which}} with reference {{reference}}, but this order goes to {{recipient}}; the station did not take it as this order's.",
  shipmentElsewhereMany: "The platform has shipments {{which}} with reference {{reference}}, but this order goes to {{recipient}}; the station did not take them as this order's.",
  shipmentNoAnswerElsewhere:
    'The shipment sent at {{sentAt}} (reference {{reference}}) got no answer, and the platform shows no shipment with this reference for this recipient {{seconds}} s later. {{conflict}} Check the platform\'s shipments; if it is not there, choose "Send again" in the Queue (F7).',
  shipmentElsewhereCheck:
    '{{conflict}} If that parcel is this order\'s (sent to an old address), cancel it or reprint it from the platform; if it is not, choose "Send again" in the Queue (F7).',
  shipmentNoAnswer:
    'The shipment sent at {{sentAt}} (reference {{reference}}) got no answer, and the platform shows no shipment with this reference {{seconds}} s later. Check the platform\'s shipments; if it is not there, choose "Send again" in the Queue (F7).',
  claimedBy: 'Order {{order}} is being packed at {{bench}} by {{packer}} since {{time}}',
  claimedByBench: 'Order {{order}} is being packed at {{bench}} since {{time}}',
  claimedOffline: 'Order {{order}} is not shipped here: the warehouse cannot be reached since {{time}} and this bench holds no claim on the order',
  shippedAtBench: 'Order {{order}} was shipped at {{bench}} at {{time}} (tracking number {{trackingNumber}}): it is not shipped again',
  shippedFromPlatform: 'Order {{order}} was shipped from the web panel at {{time}} (tracking number {{trackingNumber}}): it is not shipped again',
  notSentRateLimited: 'Not shipped, and nothing is queued: the platform’s quotes for this minute are used up. Press Ship again in {{seconds}} s',
  notSentNoQuote: 'Not shipped, and nothing is queued: the platform gave no quote ({{reason}}). Press Ship again when it answers',
  warehouseReadOnly: 'The warehouse is offline since {{time}}: shared settings are read-only until it is back',
  warehouseNoAnswer: 'The warehouse did not answer ({{reason}}): nothing was changed',
  sharedChangedElsewhere: 'Changed at {{bench}} at {{time}} while you were editing it: it was reloaded, make your change again',
  sharedChangedElsewhereBy: 'Changed at {{bench}} by {{packer}} at {{time}} while you were editing it: it was reloaded, make your change again',
  aheadChanged: 'The label bought ahead for order {{order}} ({{trackingNumber}}) no longer fits: the order changed after it was bought (items, address or rule)',
  aheadWeightOff: 'The label bought ahead for order {{order}} ({{trackingNumber}}) no longer fits: the scale says {{weight}} kg, the label is for {{labelWeight}} kg',
  aheadCancelled: '{{why}}: cancelled, €{{refunded}} refunded; a new label is bought',
  aheadCancelRefused: '{{why}}, and the platform refused to cancel it ({{reason}}): the order ships with a new label; cancel the old one from the platform’s web panel',
  aheadCancelFailed: '{{why}}, and its cancel got no answer ({{reason}}): the order ships with a new label; the close of the day cancels the old one',
  aheadByHand: 'The label bought ahead for order {{order}} ({{trackingNumber}}) is not used: the shipment was chosen by hand',
  aheadNotReady: 'The label bought ahead for order {{order}} was not ready within {{seconds}} s: the order ships with a label bought now, and the one bought ahead is cancelled if it comes',
  aheadUnreachable: 'The label bought ahead for order {{order}} could not be asked of the warehouse ({{reason}}): the order ships with a label bought now',
  aheadBatchFailed: 'Batch {{batch}} stopped after {{printed}} of {{total}} labels: {{reason}}. The rest wait to be printed again',
  dayClosedByWarehouse: 'The day closes once for the whole warehouse, on the supervisor’s page: this bench does not close its own day (or here, with the supervisor’s PIN)',
  dayClosedByWarehouseLast: 'The day closes once for the whole warehouse, on the supervisor’s page: this bench does not close its own day (or here, with the supervisor’s PIN). Last closed at {{time}} on {{date}} with {{count}} shipments',
  warehouseCloseAlone: 'This bench is not in a warehouse: End of day closes its own day',
  warehouseCloseNoAnswer: 'The supervisor’s program did not answer within {{seconds}} s: the day is not closed. Start it (npm run warehouse) or close the day on the supervisor’s page',
  warehouseCloseRefused: 'The supervisor’s program did not close the day: {{reason}}',
  warehouseCloseNoPlatform: 'The day is not closed: the supervisor’s program runs without the platform account (start npm run warehouse with --platform-url, --client-id and STATION_CLIENT_SECRET)',
  warehouseCloseBusy: 'The day is being closed already (on the supervisor’s page or at another bench): wait for that close to end',
} as const;

/** A key of {@link CORE_TEXTS_EN}. */
export type CoreTextKey = keyof typeof CORE_TEXTS_EN;

/**
 * The text `key` with `values`: `{message, text}`, `message` the English (placeholders filled, a
 * missing value left as `{{name}}`), `text` the key and values for the screens.
 * `coreText('socketRefused', {where: '10.0.0.5:9100'}).message` -> "Printer 10.0.0.5:9100 refused …".
 */
export function coreText(key: CoreTextKey, values: Record<string, string | number> = {}): { message: string; text: StationText } {
  const message = CORE_TEXTS_EN[key].replace(/\{\{(\w+)\}\}/g, (all, name: string) => (name in values ? String(values[name]) : all));
  return { message, text: { key, values } };
}

/**
 * {@link coreText} with texts inside it: each of `nested` (a message and, when the core worded it,
 * its text) fills the placeholder of its name with its English message, and its text travels flat
 * among the values as `<name>Key` and `<name>.<value>` (values are flat), so the screens word it too.
 * `coreTextNesting('jobWaiting', {}, {error: printerError})` -> "Waiting: Printer 10.0.0.5:9100 refused …".
 */
export function coreTextNesting(
  key: CoreTextKey,
  values: Record<string, string | number>,
  nested: Record<string, { message: string; text?: StationText }>,
): { message: string; text: StationText } {
  const flat: Record<string, string | number> = { ...values };
  for (const [name, n] of Object.entries(nested)) {
    flat[name] = n.message;
    if (!n.text) continue;
    flat[`${name}Key`] = n.text.key;
    for (const [k, v] of Object.entries(n.text.values ?? {})) flat[`${name}.${k}`] = v;
  }
  return coreText(key, flat);
}

/** True when `v` is a {@link StationText} (a key and, if any, string or number values), e.g. read back from a stored row. */
export function isStationText(v: unknown): v is StationText {
  if (typeof v !== 'object' || v === null || typeof (v as { key?: unknown }).key !== 'string') return false;
  const values = (v as { values?: unknown }).values;
  if (values === undefined) return true;
  return typeof values === 'object' && values !== null && Object.values(values).every((x) => typeof x === 'string' || typeof x === 'number');
}
