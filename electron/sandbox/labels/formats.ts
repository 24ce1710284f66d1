/**
 * Which label formats a contract hands out (sandbox rule). Most carriers
 * give both a PDF and a ZPL label; DHL's contracts here answer with the PDF
 * only, as PDF-only carriers do on the platform (spec: Label, `zpl` may be
 * null): `format: "PDF"`, `pdf` set, `zpl: null`, on POST /shipments and on
 * GET /shipments/{ldv}/label whatever `format` is asked. The station then
 * rasterises the PDF for the thermal printer (electron/core/printing/pdf/pdf-zpl.ts).
 */

/** Carriers whose contracts give PDF labels only. */
const PDF_ONLY_CARRIERS: ReadonlySet<string> = new Set(['DHL']);

/** True when the contract of `carrierCode` hands out PDF labels only. */
export function isPdfOnlyCarrier(carrierCode: string): boolean {
  return PDF_ONLY_CARRIERS.has(carrierCode.toUpperCase());
}
