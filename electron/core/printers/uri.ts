/**
 * Printer device URIs, CUPS style (DESIGN.md "Printing"):
 * - `socket://host[:port]` raw TCP ("JetDirect"/port 9100 printing), port 9100 by default;
 * - `file:///abs/folder` writes each job as a .zpl file plus a PNG preview (training default);
 * - `usb://<vendorId>:<productId>[?serial=...]` with 4-digit hex ids (parsed; opening comes later).
 */
import { fileURLToPath } from 'node:url';
import { PrinterError } from './errors';

/** A parsed device URI. `uri` is the input, trimmed. */
export type DeviceUri =
  | { scheme: 'socket'; uri: string; host: string; port: number }
  | { scheme: 'file'; uri: string; dir: string }
  | { scheme: 'usb'; uri: string; vendorId: number; productId: number; serial?: string };

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
  return { scheme: 'file', uri, dir };
}

function parseUsb(uri: string): DeviceUri {
  const m = /^usb:\/\/([^/?#]*)\/?(?:\?([^#]*))?$/i.exec(uri);
  if (!m) throw bad(uri, 'expected usb://<vendorId>:<productId>[?serial=...]');
  const [, ids = '', query] = m;
  const idm = /^([0-9A-Fa-f]{4}):([0-9A-Fa-f]{4})$/.exec(ids);
  if (!idm) throw bad(uri, `"${ids}" must be <vendorId>:<productId> as 4-digit hex numbers (e.g. 0a5f:0181)`);
  const out: DeviceUri = { scheme: 'usb', uri, vendorId: parseInt(idm[1] ?? '', 16), productId: parseInt(idm[2] ?? '', 16) };
  if (query !== undefined && query !== '') {
    const params = new URLSearchParams(query);
    for (const key of params.keys()) if (key !== 'serial') throw bad(uri, `unknown option "${key}" (only serial= is accepted)`);
    const serial = params.get('serial');
    if (serial !== null) {
      if (serial === '') throw bad(uri, 'serial= is empty');
      out.serial = serial;
    }
  }
  return out;
}

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
  switch (scheme) {
    case 'socket':
      return parseSocket(u);
    case 'file':
      return parseFile(u);
    case 'usb':
      return parseUsb(u);
    case undefined:
      throw bad(u, 'no scheme; use socket://host:9100, file:///folder or usb://vid:pid');
    default:
      throw bad(u, `unsupported scheme "${scheme}:"; use socket://, file:// or usb://`);
  }
}

/** Short human name for a printer, e.g. `Network printer 10.0.0.5:9100`, `Folder /tmp/labels`. */
export function describePrinter(d: DeviceUri): string {
  switch (d.scheme) {
    case 'socket':
      return `Network printer ${d.host.includes(':') ? `[${d.host}]` : d.host}:${d.port}`;
    case 'file':
      return `Folder ${d.dir}`;
    case 'usb': {
      const hex = (n: number): string => n.toString(16).padStart(4, '0');
      return `USB printer ${hex(d.vendorId)}:${hex(d.productId)}${d.serial ? ` (${d.serial})` : ''}`;
    }
  }
}
