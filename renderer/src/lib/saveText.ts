/** Saving a text the core made (a rules or product file) as a download. */

/** Saves `content` as `fileName` through a temporary `<a download>`; the object URL is revoked afterwards. */
export function saveText(content: string, fileName: string, type: string): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
