/**
 * Printer device URIs, CUPS style (DESIGN.md "Printing"); the schemes are listed once in
 * shared/print/device-uri-schemes.ts, each parsed here:
 * - `socket://host[:port]` raw TCP ("JetDirect"/port 9100 printing), port 9100 by default;
 * - `file:///abs/folder` writes each job as a .zpl file plus a PNG preview (training default); parsed
 *   by the WHATWG URL parser and `fileURLToPath`, then the folder rule of folder.ts (normalised,
 *   symlinks resolved, system folders and devices refused);
 * - `usb://<Make>/<Model>[?serial=...]` as CUPS' usb backend writes it (make and model as the
 *   device reports them in its USB strings, percent-encoded; `+` or `%20` for spaces; matched
 *   case-insensitively), or `usb://<vendorId>:<productId>[?serial=...]` with 4-digit hex ids.
 *   `serial=` tells two identical printers apart; CUPS' `interface=N` is accepted too.
 * - `printer:<queue>` raw through the operating system's spooler (CUPS `lp -d <queue> -o raw`,
 *   the Windows spooler's RAW datatype); queue names as `lpstat -e` lists them.
 */
import { fileURLToPath } from 'node:url';
import { PrinterError } from '../errors';
import { deviceFolderProblem } from './folder';
import type { PrinterNameParts } from '../../../../shared/contract/views';
import { DEVICE_URI_EXAMPLES, DEVICE_URI_PREFIXES, isDeviceUriScheme, type DeviceUriSchemeName } from '../../../../shared/print/device-uri-schemes';

/** A parsed device URI. `uri` is the input, trimmed. */
export type DeviceUri =
  | { scheme: 'socket'; uri: string; host: string; port: number }
  | { scheme: 'file'; uri: string; dir: string }
  | { scheme: 'usb'; uri: string; vendorId?: number; productId?: number; make?: string; model?: string; serial?: string; interface?: number }
  | { scheme: 'printer'; uri: string; queue: string };

/** Raw TCP port of ZPL printers (Zebra "port 9100" printing). */
const DEFAULT_SOCKET_PORT = 9100;

function bad(uri: string, problem: string): PrinterError {
  return new PrinterError('invalid_printer_uri', `Invalid printer URI "${uri}": ${problem}`);
}

const HOSTNAME_RE = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;

function parseSocket(uri: string): DeviceUri {
  const m = /^socket:\/\/(\[[^\]]*\]|[^/:?#]*)(?::([^/?#]*))?(\/?)([?#].*)?$/i.exec(uri);
  if (!m) return badSocket(uri);
  const [, rawHost = '', rawPort, , rest] = m;
  if (rest) throw bad(uri, 'socket URIs take no query or fragment (write socket://host:port)');
  if (!rawHost) throw bad(uri, 'host is missing (write socket://host:9100)');
  let host = rawHost;
  if (host.startsWith('[')) {
    host = host.slice(1, -1);
    if (!/^[0-9A-Fa-f:.]+$/.test(host) || !host.includes(':')) throw bad(uri, `"${rawHost}" is not an IPv6 address`);
  } else if (!HOSTNAME_RE.test(host)) {
    throw bad(uri, `"${host}" is not a valid host name or IPv4 address`);
  }
  let port = DEFAULT_SOCKET_PORT;
  if (rawPort !== undefined) {
    if (!/^\d{1,5}$/.test(rawPort) || Number(rawPort) < 1 || Number(rawPort) > 65535) throw bad(uri, `port "${rawPort}" must be a number from 1 to 65535`);
    port = Number(rawPort);
  }
  return { scheme: 'socket', uri, host, port };
}

function badSocket(uri: string): never {
  if (/^socket:\/\/[^/]*\/./i.test(uri)) throw bad(uri, 'socket URIs take no path (write socket://host:port)');
  throw bad(uri, 'expected socket://host[:port]');
}

function parseFile(uri: string): DeviceUri {
  if (!/^file:\/\//i.test(uri)) throw bad(uri, 'expected file:///absolute/folder (three slashes)');
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw bad(uri, 'not a valid file URL');
  }
  if (url.search || url.hash) throw bad(uri, 'file URIs take no query or fragment');
  if (url.host !== '' && url.host !== 'localhost') throw bad(uri, `host "${url.host}" is not allowed; write file:///absolute/folder`);
  let dir: string;
  try {
    dir = fileURLToPath(url);
  } catch (e) {
    throw bad(uri, e instanceof Error ? e.message : 'not an absolute folder path');
  }
  if (dir.length > 1) dir = dir.replace(/[\\/]+$/, '');
  if (dir === '') throw bad(uri, 'folder path is missing');
  // The one folder rule (folder.ts): normalised, symlinks resolved, /proc, /sys, /dev (Windows devices) refused.
  const checked = deviceFolderProblem(dir);
  if ('problem' in checked) throw bad(uri, checked.problem);
  return { scheme: 'file', uri, dir: checked.dir };
}

function decodePart(uri: string, part: string, what: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' ')).trim();
  } catch {
    throw bad(uri, `${what} "${part}" is not valid percent-encoding`);
  }
}

function parseUsb(uri: string): DeviceUri {
  const m = /^usb:\/\/([^/?#]*)(?:\/([^?#]*))?(?:\?([^#]*))?$/i.exec(uri);
  if (!m) throw bad(uri, 'expected usb://Make/Model[?serial=...] or usb://<vendorId>:<productId>[?serial=...]');
  const [, first = '', second, query] = m;
  let out: Extract<DeviceUri, { scheme: 'usb' }>;
  const idm = /^([0-9A-Fa-f]{4}):([0-9A-Fa-f]{4})$/.exec(first);
  if (idm) {
    if (second) throw bad(uri, 'write either usb://<vendorId>:<productId> or usb://Make/Model, not both');
    out = { scheme: 'usb', uri, vendorId: parseInt(idm[1] ?? '', 16), productId: parseInt(idm[2] ?? '', 16) };
  } else {
    if (first.includes(':')) throw bad(uri, `"${first}" must be <vendorId>:<productId> as 4-digit hex numbers (e.g. 0a5f:0181)`);
    const make = decodePart(uri, first, 'make');
    const model = decodePart(uri, (second ?? '').replace(/\/+$/, ''), 'model');
    if (!make) throw bad(uri, 'the maker is missing (usb://Zebra/ZD421 or usb://0a5f:0181)');
    if (!model) throw bad(uri, `the model is missing after "${make}" (usb://${first}/ZD421), or write usb://<vendorId>:<productId>`);
    out = { scheme: 'usb', uri, make, model };
  }
  if (query !== undefined && query !== '') {
    const params = new URLSearchParams(query);
    for (const key of params.keys()) if (key !== 'serial' && key !== 'interface') throw bad(uri, `unknown option "${key}" (only serial= and interface= are accepted)`);
    const serial = params.get('serial');
    if (serial !== null) {
      if (serial.trim() === '') throw bad(uri, 'serial= is empty');
      out.serial = serial.trim();
    }
    const iface = params.get('interface');
    if (iface !== null) {
      if (!/^\d{1,3}$/.test(iface)) throw bad(uri, `interface="${iface}" must be an interface number`);
      out.interface = Number(iface);
    }
  }
  return out;
}

function parseQueue(uri: string): DeviceUri {
  const raw = uri.slice('printer:'.length).replace(/^\/\//, '');
  const queue = decodePart(uri, raw, 'queue');
  if (!queue) throw bad(uri, 'the queue name is missing (printer:Zebra_ZD421, as lpstat lists it)');
  // CUPS names have no spaces, but Windows printer names do ("ZDesigner ZD421-203dpi ZPL"); the name is
  // passed to lp / the spooler as one argument, never through a shell.
  if ([...queue].some((c) => c.charCodeAt(0) < 0x20 || c === '\x7f') || queue.length > 127) throw bad(uri, `"${queue}" is not a print queue name`);
  return { scheme: 'printer', uri, queue };
}

/** The parser of each scheme of the table (shared/print/device-uri-schemes.ts): a row without one does not compile. */
const PARSERS: { readonly [S in DeviceUriSchemeName]: (uri: string) => DeviceUri } = {
  socket: parseSocket,
  usb: parseUsb,
  printer: parseQueue,
  file: parseFile,
};

/**
 * Parses a printer device URI (see module doc for the accepted forms).
 *
 * @throws PrinterError `invalid_printer_uri` whose message names the problem
 *   (unknown scheme, missing host, bad port, relative folder, bad USB ids...)
 */
export function parseDeviceUri(uri: string): DeviceUri {
  if (typeof uri !== 'string' || uri.trim() === '') throw new PrinterError('invalid_printer_uri', 'Printer URI is empty');
  const u = uri.trim();
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(u)?.[1]?.toLowerCase();
  if (scheme === undefined) throw bad(u, `no scheme; use ${DEVICE_URI_EXAMPLES}`);
  if (!isDeviceUriScheme(scheme)) throw bad(u, `unsupported scheme "${scheme}:"; use ${DEVICE_URI_PREFIXES}`);
  return PARSERS[scheme](u);
}

/** What a printer's name is made of (the screens say it in the bench's language): `{kind: 'folder', what: '/tmp/labels'}`. */
export function printerNameParts(d: DeviceUri): PrinterNameParts {
  switch (d.scheme) {
    case 'socket':
      return { kind: 'network', what: `${d.host.includes(':') ? `[${d.host}]` : d.host}:${d.port}` };
    case 'file':
      return { kind: 'folder', what: d.dir };
    case 'usb': {
      const hex = (n: number | undefined): string => (n ?? 0).toString(16).padStart(4, '0');
      const what = d.make ? `${d.make} ${d.model ?? ''}`.trim() : `${hex(d.vendorId)}:${hex(d.productId)}`;
      return { kind: 'usb', what: `${what}${d.serial ? ` (${d.serial})` : ''}` };
    }
    case 'printer':
      return { kind: 'queue', what: d.queue };
  }
}

const ENGLISH_KIND: Record<PrinterNameParts['kind'], string> = { network: 'Network printer', folder: 'Folder', usb: 'USB printer', queue: 'Print queue' };

/** Short human name for a printer, in English (logs, `PrinterView.name`), e.g. `Network printer 10.0.0.5:9100`, `Folder /tmp/labels`. */
export function describePrinter(d: DeviceUri): string {
  const p = printerNameParts(d);
  return `${ENGLISH_KIND[p.kind]} ${p.what}`;
}
