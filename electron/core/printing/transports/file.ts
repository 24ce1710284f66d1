/**
 * The folder printer (`file:///dir`), the training default, as a
 * {@link Transport}: each job becomes `<job>.zpl` (the exact bytes a printer
 * would get) plus PNG previews of its labels (`<job>.png`, then
 * `<job>.2.png`, ...), rendered at the printer's dpi. No way back from a
 * folder: its status is whether it can be written.
 */
import { constants } from 'node:fs';
import { access, writeFile } from 'node:fs/promises';
import { printerFailure } from '../errors';
import { deviceFolderProblem, makeFolder, writeNewFile } from './folder';
import { renderZplPreview } from '../zpl/preview';
import type { PrintOptions, PrinterStatus } from '../types';
import type { Transport, TransportWrite } from './transport';
import type { DeviceUri } from './uri';

/** Most labels of one job rendered as PNG (each takes ~0.2 s). */
const MAX_PREVIEW_LABELS = 10;

/** Job name -> safe file base name (letters, digits, `._-`), at most 100 characters. */
function safeJobName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 100);
}

function timestampName(): string {
  return new Date().toISOString().replace(/[:.]/g, '-');
}

/** A folder that stands in for a label printer, as a {@link Transport}. */
export class FolderTransport implements Transport {
  readonly uri: string;
  readonly name: string;
  readonly dir: string;
  readonly release = 'each' as const;

  constructor(
    dev: Extract<DeviceUri, { scheme: 'file' }>,
    private readonly dpi: 203 | 300,
  ) {
    this.uri = dev.uri;
    this.dir = dev.dir;
    this.name = `Folder ${dev.dir}`;
  }

  /** Nothing to open: the folder is checked (and made) by each write and status. */
  open(): Promise<void> {
    return Promise.resolve();
  }

  /**
   * Writes `zpl` to `<dir>/<jobName or timestamp>.zpl` (never overwriting: a
   * `-2`, `-3`... suffix is added) and PNG previews of up to
   * {@link MAX_PREVIEW_LABELS} labels. The folder is created when missing.
   * A preview that cannot be rendered does not fail the job (a real printer
   * would take the bytes too): `previewError` says why.
   *
   * @throws PrinterError `printer_error` (delivered `none`) when the folder or file cannot be written
   */
  async write(zpl: Uint8Array, opts: PrintOptions = {}): Promise<TransportWrite> {
    const base = safeJobName(opts.jobName ?? '') || timestampName();
    let zplPath = '';
    let stem = '';
    try {
      await this.ensureFolder();
      zplPath = await writeNewFile(this.dir, base, 'zpl', zpl);
      stem = zplPath.slice(0, -'.zpl'.length);
    } catch (e) {
      // No .zpl written: nothing was "printed", the job may wait for the folder to come back.
      throw printerFailure('printer_error', 'folderCannotWrite', { dir: this.dir, reason: e instanceof Error ? e.message : String(e) }, { cause: e, delivered: 'none' });
    }
    const result: TransportWrite = { bytesWritten: zpl.byteLength, zplPath, previewPaths: [] };
    try {
      const media = opts.media;
      const { pngs } = await renderZplPreview(new TextDecoder('utf-8').decode(zpl), {
        dpi: media?.dpi ?? this.dpi,
        maxLabels: MAX_PREVIEW_LABELS,
        ...(media ? { labelMm: { widthMm: media.widthMm, heightMm: media.heightMm } } : {}),
      });
      const paths = pngs.map((_, i) => (i === 0 ? `${stem}.png` : `${stem}.${i + 1}.png`));
      await Promise.all(pngs.map((png, i) => writeFile(paths[i] as string, png)));
      result.previewPaths = paths;
    } catch (e) {
      result.previewError = e instanceof Error ? e.message : String(e);
    }
    return result;
  }

  /** `ready` when the folder exists (or can be created) and is writable, else `error` with the reason. */
  async ownStatus(): Promise<PrinterStatus> {
    try {
      await this.ensureFolder();
      await access(this.dir, constants.W_OK);
      return { state: 'ready', detail: `Ready: labels are saved to ${this.dir}`, detailText: { key: 'folderReady', values: { dir: this.dir } } };
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      return { state: 'error', detail: `Folder ${this.dir} is not writable: ${reason}`, detailText: { key: 'folderNotWritable', values: { dir: this.dir, reason } }, code: 'printer_error' };
    }
  }

  /**
   * The folder rule again (a symlink made since the URI was parsed may lead to a system folder),
   * then the folder made when missing, a bounded number of system calls (folder.ts).
   * @throws Error naming the problem or the file system's error
   */
  private async ensureFolder(): Promise<void> {
    const checked = deviceFolderProblem(this.dir);
    if ('problem' in checked) throw new Error(checked.problem);
    await makeFolder(this.dir);
  }

  /** Nothing to release. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  /** Nothing to release. */
  dispose(): Promise<void> {
    return Promise.resolve();
  }
}
