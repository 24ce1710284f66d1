/**
 * Words of End of day's charts and the day report, in the bench's two
 * languages (issue 26). One dictionary for the screen and the report, so a
 * chart says the same thing on both. Italian uses the trade's words:
 * lettera di vettura (tracking number), distinta di consegna / borderò
 * (manifest), ritiro (pickup), giacenza (held at the depot), collo (parcel).
 */
import type { ReportLanguage } from '../contract/reports';

/** Every text of the charts and the report. `{x}` placeholders are filled by {@link fill}. */
export interface ReportText {
  hourlyTitle: string;
  hourlySummary: string;
  today: string;
  usual: string;
  hour: string;
  parcels: string;
  shipments: string;
  contractTitle: string;
  contractSummary: string;
  carrierContract: string;
  packerTitle: string;
  packerSummary: string;
  packer: string;
  nobody: string;
  medianScanToLabel: string;
  verifyMismatches: string;
  reprints: string;
  costTitle: string;
  costSummary: string;
  day: string;
  cost: string;
  exceptionsTitle: string;
  exceptionsSummary: string;
  needsAttention: string;
  held: string;
  voided: string;
  count: string;
  reportTitle: string;
  station: string;
  totalsPerCarrier: string;
  totalsPerPacker: string;
  manifests: string;
  manifestNumber: string;
  pickups: string;
  pickupNumber: string;
  pickupDate: string;
  none: string;
  total: string;
  page: string;
  csvHeaders: readonly [string, string, string, string, string, string, string, string, string, string];
}

const en: ReportText = {
  hourlyTitle: 'Parcels per hour',
  hourlySummary: 'Parcels per hour on {day}: {total} in total, the busiest hour {peak}:00 with {peakN}; the usual day (same weekday, last four weeks) has {usualTotal}.',
  today: 'Today',
  usual: 'Usual (4-week average)',
  hour: 'Hour',
  parcels: 'Parcels',
  shipments: 'Shipments',
  contractTitle: 'Parcels per carrier and contract',
  contractSummary: 'Parcels per carrier and contract, {from} to {to}: {list}.',
  carrierContract: 'Carrier — contract',
  packerTitle: 'Per packer',
  packerSummary: 'Per packer, {from} to {to}: {list}.',
  packer: 'Packer',
  nobody: '(nobody signed in)',
  medianScanToLabel: 'Median scan to label (s)',
  verifyMismatches: 'Verify mismatches',
  reprints: 'Reprints',
  costTitle: 'Shipping cost per day',
  costSummary: 'Shipping cost per day, {from} to {to}: {total} in total.',
  day: 'Day',
  cost: 'Cost',
  exceptionsTitle: 'Exceptions',
  exceptionsSummary: 'Exceptions, {from} to {to}: {needsAttention} need attention, {held} held at the depot, {voided} voided.',
  needsAttention: 'Needs attention',
  held: 'Held at depot',
  voided: 'Voided',
  count: 'Count',
  reportTitle: 'Day report',
  station: 'Station',
  totalsPerCarrier: 'Totals per carrier and contract',
  totalsPerPacker: 'Totals per packer',
  manifests: 'Manifests',
  manifestNumber: 'Manifest',
  pickups: 'Pickups',
  pickupNumber: 'Pickup',
  pickupDate: 'Date',
  none: 'none',
  total: 'Total',
  page: 'Page',
  csvHeaders: ['Time (Europe/Rome)', 'Packer', 'Shop', 'Order', 'Carrier', 'Contract', 'Tracking number', 'Weight (kg)', 'Cost', 'Status'],
};

const it: ReportText = {
  hourlyTitle: 'Colli per ora',
  hourlySummary: 'Colli per ora il {day}: {total} in tutto, l’ora di punta le {peak}:00 con {peakN}; il giorno consueto (stesso giorno della settimana, ultime quattro settimane) ne ha {usualTotal}.',
  today: 'Oggi',
  usual: 'Consueto (media di 4 settimane)',
  hour: 'Ora',
  parcels: 'Colli',
  shipments: 'Spedizioni',
  contractTitle: 'Colli per corriere e contratto',
  contractSummary: 'Colli per corriere e contratto, dal {from} al {to}: {list}.',
  carrierContract: 'Corriere — contratto',
  packerTitle: 'Per operatore',
  packerSummary: 'Per operatore, dal {from} al {to}: {list}.',
  packer: 'Operatore',
  nobody: '(nessun operatore)',
  medianScanToLabel: 'Mediana scansione-etichetta (s)',
  verifyMismatches: 'Verifiche non corrispondenti',
  reprints: 'Ristampe',
  costTitle: 'Costo di spedizione per giorno',
  costSummary: 'Costo di spedizione per giorno, dal {from} al {to}: {total} in tutto.',
  day: 'Giorno',
  cost: 'Costo',
  exceptionsTitle: 'Eccezioni',
  exceptionsSummary: 'Eccezioni, dal {from} al {to}: {needsAttention} da gestire, {held} in giacenza, {voided} annullate.',
  needsAttention: 'Da gestire',
  held: 'In giacenza',
  voided: 'Annullate',
  count: 'Numero',
  reportTitle: 'Rapporto del giorno',
  station: 'Banco',
  totalsPerCarrier: 'Totali per corriere e contratto',
  totalsPerPacker: 'Totali per operatore',
  manifests: 'Distinte di consegna (borderò)',
  manifestNumber: 'Distinta',
  pickups: 'Ritiri',
  pickupNumber: 'Ritiro',
  pickupDate: 'Data',
  none: 'nessuno',
  total: 'Totale',
  page: 'Pagina',
  csvHeaders: ['Ora (Europa/Roma)', 'Operatore', 'Negozio', 'Ordine', 'Corriere', 'Contratto', 'Lettera di vettura', 'Peso (kg)', 'Costo', 'Stato'],
};

/** The texts of `language`. */
export function reportText(language: ReportLanguage): ReportText {
  return language === 'it' ? it : en;
}

/** Fills `{name}` placeholders of `template` with `values` (a missing value stays as written). */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}
