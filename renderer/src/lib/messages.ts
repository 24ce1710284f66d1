/**
 * Field messages in the bench's language. The station's schemas (shared/:
 * the platform's request bodies, orders, boxes, items, slips) write their
 * messages in English once, for core, sandbox and screen alike; on an Italian
 * bench each message a field shows is put into Italian here — by exact text,
 * or by its pattern ("Weight is required", "Phone must be at most 30
 * characters") with the field's name translated. A message this table does
 * not know is shown as it is (English), never dropped.
 */
import { PICKUP_COUNT_RANGE } from '../../../shared/contract/pickup-form';
import { CHOOSE_BOX } from '../../../shared/contract/ship-form';
import { language, localeText } from './i18n';

/** Field names as the English messages write them -> Italian. */
const FIELD: Record<string, string> = {
  Weight: 'Il peso',
  Length: 'La lunghezza',
  Width: 'La larghezza',
  Height: 'L’altezza',
  Amount: 'L’importo',
  Name: 'Il nome',
  'Recipient name': 'Il nome del destinatario',
  Company: 'L’azienda',
  Street: 'L’indirizzo',
  'Street 2': 'La seconda riga dell’indirizzo',
  City: 'La città',
  'Postal code': 'Il CAP',
  Province: 'La provincia',
  Phone: 'Il telefono',
  Reference: 'Il riferimento',
  Notes: 'Le note',
  'Order number': 'Il numero d’ordine',
  SKU: 'Lo SKU',
  'Item name': 'Il nome dell’articolo',
  'Country code': 'Il codice del paese',
  'Country of manufacture': 'Il paese di produzione',
  Description: 'La descrizione',
  Quantity: 'La quantità',
  Tare: 'La tara',
  'Box name': 'Il nome della scatola',
  'Unit weight': 'Il peso unitario',
  Tolerance: 'La tolleranza',
  'Shop name': 'Il nome del negozio',
  Shop: 'Il negozio',
};

/** Whole messages -> Italian. */
const EXACT: Record<string, string> = {
  [CHOOSE_BOX]: 'Scegli una scatola (Alt+1–9, o il suo numero o codice a barre in Scatola) o digita le misure',
  [PICKUP_COUNT_RANGE]: 'I colli devono essere un numero intero da 1 a 50',
  'Amount cannot be negative': 'L’importo non può essere negativo',
  'Italian province must be the 2-letter code (e.g. MI)': 'La provincia italiana va indicata con la sigla di 2 lettere (es. MI)',
  'At least one commodity is required': 'Serve almeno una riga nella dichiarazione doganale',
  'At least one package is required': 'Serve almeno un collo',
  'At most 50 packages per shipment': 'Al massimo 50 colli per spedizione',
  'Contract is required': 'Scegli il contratto',
  'Country is required': 'Il paese è obbligatorio',
  'Country must be a 2-letter code such as IT': 'Il paese va indicato con 2 lettere, come IT',
  'Country must be a 2-letter code': 'Il paese va indicato con 2 lettere',
  'Currency must be 3 letters': 'La valuta ha 3 lettere',
  'Currency must be 3 letters, like EUR': 'La valuta ha 3 lettere, come EUR',
  'Date must be YYYY-MM-DD': 'La data va scritta AAAA-MM-GG',
  'E-mail address is not valid': 'Indirizzo e-mail non valido',
  'HS code must be 6 to 10 digits': 'Il codice HS ha da 6 a 10 cifre',
  'Order number cannot be empty': 'Il numero d’ordine non può essere vuoto',
  'Recipient is required': 'Il destinatario è obbligatorio',
  'Recipient name cannot be empty': 'Il nome del destinatario non può essere vuoto',
  'Total cannot be negative': 'Il totale non può essere negativo',
  'Unit price cannot be negative': 'Il prezzo unitario non può essere negativo',
  'Choose how the courier collects the cash': 'Scegli come il corriere incassa il contrassegno',
  'This contract does not take cash on delivery': 'Questo contratto non accetta il contrassegno',
  'Serial port is required, e.g. /dev/ttyUSB0 or COM3': 'Indica la porta seriale, es. /dev/ttyUSB0 o COM3',
  'Baud rate must be 300 to 115200': 'La velocità va da 300 a 115200 baud',
  'Box name is required': 'Il nome della scatola è obbligatorio',
  'Barcode must be printable characters without spaces': 'Il codice a barre ha solo caratteri stampabili, senza spazi',
  'A barcode is printable characters without spaces': 'Il codice a barre ha solo caratteri stampabili, senza spazi',
  'A barcode cannot be empty': 'Il codice a barre non può essere vuoto',
  'SKU is required': 'Lo SKU è obbligatorio',
  'Paper width is 80 or 58 mm': 'La larghezza della carta è 80 o 58 mm',
  'Tolerance is 1 to 100 %': 'La tolleranza va da 1 a 100 %',
  'Say why the items are not scanned (3 characters or more)': 'Indica perché gli articoli non sono letti (almeno 3 caratteri)',
  'A side is at least 0.1 cm (1 mm)': 'Un lato misura almeno 0,1 cm (1 mm)',
  'A parcel weighs at least 0.001 kg (1 g)': 'Un collo pesa almeno 0,001 kg (1 g)',
  'A side is at most 500 cm': 'Un lato misura al massimo 500 cm',
  'A parcel weighs at most 1000 kg': 'Un collo pesa al massimo 1000 kg',
  'Keep labels at least 7 days': 'Conserva le etichette almeno 7 giorni',
  'Keep labels at most 3650 days': 'Conserva le etichette al massimo 3650 giorni',
  'Retention must be a number of days': 'Indica un numero di giorni',
  'Retention must be whole days': 'Indica giorni interi',
  'A shop cannot be named __proto__': 'Un negozio non può chiamarsi __proto__',
  'A field cannot be named __proto__': 'Un campo non può chiamarsi __proto__',
};

/** Patterns with the field's name first. */
const PATTERNS: Array<[RegExp, (field: string, ...rest: string[]) => string]> = [
  [/^(.+) is required$/, (f) => `${f} è obbligatorio`],
  [/^(.+) must be at most (\d+) characters$/, (f, n) => `${f}: al massimo ${n} caratteri`],
  [/^(.+) is too long \(max (\d+) characters\)$/, (f, n) => `${f}: al massimo ${n} caratteri`],
  [/^(.+) must be greater than 0$/, (f) => `${f} deve essere maggiore di 0`],
  [/^(.+) must be above 0 (cm|kg)$/, (f, u) => `${f} deve essere maggiore di 0 ${u}`],
  [/^(.+) must be at most ([\d.]+) (cm|kg)$/, (f, n, u) => `${f}: al massimo ${n} ${u}`],
  [/^(.+) must be (\d+) kg or more$/, (f, n) => `${f}: almeno ${n} kg`],
  [/^(.+) must be a number(?: of (cm|kg|%))?(?: \(in [A-Z]+ or [A-Z]+\))?(?:, not .+)?$/, (f) => `${f} deve essere un numero`],
  [/^(.+) must be a whole number$/, (f) => `${f} deve essere un numero intero`],
  [/^(.+) must be at least (\d+)$/, (f, n) => `${f}: almeno ${n}`],
  [/^(.+) must be 2 letters \(ISO 3166-1 alpha-2\), like IT$/, (f) => `${f} va indicato con 2 lettere, come IT`],
];

/**
 * `message` in the bench's language: itself in English; in Italian the
 * translation when the table knows it (exact text or pattern), else itself.
 */
export function fieldMessage(message: string): string {
  if (language() !== 'it') return localeText(message);
  const exact = EXACT[message];
  if (exact) return localeText(exact);
  for (const [re, make] of PATTERNS) {
    const m = re.exec(message);
    if (!m) continue;
    const [, field = '', ...rest] = m;
    const it = FIELD[field];
    if (it) return localeText(make(it, ...rest.filter((r): r is string => r !== undefined)));
  }
  return message;
}
