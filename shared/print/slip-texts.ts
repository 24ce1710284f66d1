/**
 * The words of a packing slip (A4 and receipt) in the bench's language, as
 * docs/glossary-it.md names things: "lista di imballo" (packing slip),
 * "destinatario", "numero di spedizione (LDV)" (trackingNumber). Plurals by
 * CLDR rules (`Intl.PluralRules`): "1 riga, 2 pezzi" / "1 line, 2 pieces".
 */
import { countedNoun, type PrintLanguage } from './plural';

/** Languages a slip is drawn in. */
export type SlipLanguage = PrintLanguage;

/** The slip's words; functions for those that hold a value or a count. */
export interface SlipTexts {
  /** Document title (PDF metadata), e.g. `Lista di imballo #1001`. */
  title(orderNumber: string): string;
  /** `Ordine #1001` / `Order #1001`. */
  order(orderNumber: string): string;
  /** `Lista di imballo - 24/11/2026` / `Packing slip - 24/11/2026` (date already dd/mm/yyyy). */
  slipOf(date: string): string;
  shipTo: string;
  quantity: string;
  sku: string;
  item: string;
  /** `3 righe, 5 pezzi` / `3 lines, 5 pieces`. */
  count(lines: number, pieces: number): string;
  /** `1 riga` / `1 line` (receipt, left column). */
  lines(n: number): string;
  /** `5 pezzi` / `5 pieces` (receipt, right column). */
  pieces(n: number): string;
  /** `Note: …` / `Notes: …`. */
  notes(text: string): string;
  /** `Numero di spedizione (LDV) BR123` / `Tracking number BR123`. */
  trackingNumber(n: string): string;
  /** The receipt's shorter form: `LDV BR123` / `Tracking BR123`. */
  trackingShort(n: string): string;
  /** `Consegna al punto di ritiro: …` / `Deliver to pickup point: …` (name and address of the point). */
  deliveryPoint(point: string): string;
}


const TEXTS: Record<SlipLanguage, SlipTexts> = {
  it: {
    title: (o) => `Lista di imballo ${o}`,
    order: (o) => `Ordine ${o}`,
    slipOf: (d) => `Lista di imballo - ${d}`,
    shipTo: 'Destinatario',
    quantity: 'Q.tà',
    sku: 'Codice',
    item: 'Articolo',
    count: (l, p) => `${countedNoun('it', l, 'riga', 'righe')}, ${countedNoun('it', p, 'pezzo', 'pezzi')}`,
    lines: (n) => countedNoun('it', n, 'riga', 'righe'),
    pieces: (n) => countedNoun('it', n, 'pezzo', 'pezzi'),
    notes: (s) => `Note: ${s}`,
    trackingNumber: (n) => `Numero di spedizione (LDV) ${n}`,
    trackingShort: (n) => `LDV ${n}`,
    deliveryPoint: (p) => `Consegna al punto di ritiro: ${p}`,
  },
  en: {
    title: (o) => `Packing slip ${o}`,
    order: (o) => `Order ${o}`,
    slipOf: (d) => `Packing slip - ${d}`,
    shipTo: 'Ship to',
    quantity: 'Qty',
    sku: 'SKU',
    item: 'Item',
    count: (l, p) => `${countedNoun('en', l, 'line', 'lines')}, ${countedNoun('en', p, 'piece', 'pieces')}`,
    lines: (n) => countedNoun('en', n, 'line', 'lines'),
    pieces: (n) => countedNoun('en', n, 'piece', 'pieces'),
    notes: (s) => `Notes: ${s}`,
    trackingNumber: (n) => `Tracking number ${n}`,
    trackingShort: (n) => `Tracking ${n}`,
    deliveryPoint: (p) => `Deliver to pickup point: ${p}`,
  },
};

/** The slip's words in `lang`. */
export function slipTexts(lang: SlipLanguage): SlipTexts {
  return TEXTS[lang];
}
