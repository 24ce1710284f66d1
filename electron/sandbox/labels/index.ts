/**
 * Carrier labels and manifests as the sandbox's carriers print them:
 * 4 x 6 in (100 x 150 mm) labels as ZPL II or PDF, and the A4 manifest
 * (closing list) PDF. The sandbox base64-encodes these into `label.zpl`,
 * `label.pdf` (spec: Label) and the manifest `pdf` (spec: Manifest).
 */
export type { LabelAddress, LabelData, ManifestPdfData } from './types';
export { LabelDataError,   } from './types';
export { renderLabelsZpl } from './zpl';
export { renderLabelsPdf, LABEL_PAGE_PT } from './pdf';
export { renderManifestPdf,  } from './manifest';
