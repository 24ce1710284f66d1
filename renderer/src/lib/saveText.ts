/** Saving what the core made (a rules or product file, a day report) as a download. */

/** Saves `blob` as `fileName` through a temporary `<a download>`; the object URL is revoked a minute later. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Saves text `content` of MIME `type` as `fileName` ({@link saveBlob}). */
export function saveText(content: string, fileName: string, type: string): void {
  saveBlob(new Blob([content], { type }), fileName);
}
