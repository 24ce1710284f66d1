/**
 * The schemes of a printer's device URI (CUPS style), listed once: the URI
 * parser (electron/core/printing/transports/uri.ts `parseDeviceUri`), the
 * rules file's `printer` field (shared/contract/rules.ts, and so the JSON
 * Schema generated from it, shared/schemas/rules.schema.json), the command
 * line's `--printer` (electron/core/config.ts) and the
 * messages that name the schemes all read this table. A new transport adds
 * its row here, its parser case in uri.ts and its file in transports/.
 *
 * Pure data, no `node:*`: the screens, the contract and the core share it.
 */

/** One device URI scheme. */
export interface DeviceUriScheme {
  /** The scheme's name, lower case, without the colon (`socket`). */
  readonly scheme: string;
  /** What a URI of this scheme starts with (matched case-insensitively): `socket://`, `printer:`. */
  readonly prefix: string;
  /**
   * What must follow the prefix for the URI to be worth parsing, as regular
   * expression source (a shape check for saved rules; the parser checks the rest).
   */
  readonly rest: string;
  /** The scheme as the parser's messages show it, e.g. `socket://host:9100`, `usb://Make/Model`. */
  readonly example: string;
  /** The scheme as the rules file's messages show it, e.g. `usb://…`. */
  readonly hint: string;
}

/** Every scheme a label (or slip) printer's device URI may have, in the order messages list them. */
export const DEVICE_URI_SCHEMES = [
  /** Raw TCP ("JetDirect", port 9100 printing). */
  { scheme: 'socket', prefix: 'socket://', rest: '\\S+', example: 'socket://host:9100', hint: 'socket://host:9100' },
  /** A USB printer-class device, as CUPS' usb backend writes it (or by vendor:product ids). */
  { scheme: 'usb', prefix: 'usb://', rest: '\\S+', example: 'usb://Make/Model', hint: 'usb://…' },
  /** An OS print queue (CUPS `lp -d`, the Windows spooler), raw. */
  { scheme: 'printer', prefix: 'printer:', rest: '\\S.*', example: 'printer:<queue>', hint: 'printer:<queue>' },
  /** A folder that stands in for a printer (the .zpl and PNG previews are written there). */
  { scheme: 'file', prefix: 'file://', rest: '/\\S.*', example: 'file:///folder', hint: 'file:///folder' },
] as const satisfies readonly DeviceUriScheme[];

/** A scheme's name: `socket`, `usb`, `printer`, `file`. */
export type DeviceUriSchemeName = (typeof DEVICE_URI_SCHEMES)[number]['scheme'];

/** `a, b, c or d`. */
function orList(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** The schemes' examples for a message: `socket://host:9100, usb://Make/Model, printer:<queue> or file:///folder`. */
export const DEVICE_URI_EXAMPLES = orList(DEVICE_URI_SCHEMES.map((s) => s.example));

/** The schemes' prefixes for a message: `socket://, usb://, printer: or file://`. */
export const DEVICE_URI_PREFIXES = orList(DEVICE_URI_SCHEMES.map((s) => s.prefix));

/** The schemes' hints for the rules file: `socket://host:9100, usb://…, printer:<queue>, file:///folder`. */
export const DEVICE_URI_HINTS = DEVICE_URI_SCHEMES.map((s) => s.hint).join(', ');

/** The scheme named by a URI's text, matched case-insensitively (`SOCKET://…` is `socket`), or undefined. */
export function isDeviceUriScheme(name: string): name is DeviceUriSchemeName {
  return DEVICE_URI_SCHEMES.some((s) => s.scheme === name);
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * A trimmed text that looks like a device URI of one of the schemes (prefix and a non-empty rest;
 * case-insensitive): `^(?:socket:\/\/\S+|usb:\/\/\S+|printer:\S.*|file:\/\/\/\S.*)$`. A shape check
 * only: `parseDeviceUri` says what else is wrong.
 */
export const DEVICE_URI_SHAPE = new RegExp(`^(?:${DEVICE_URI_SCHEMES.map((s) => `${escape(s.prefix)}${s.rest}`).join('|')})$`, 'i');

/**
 * {@link DEVICE_URI_SHAPE} for a JSON Schema `pattern` (ECMA-262 without flags): letters as
 * `[Ss]` classes instead of the `i` flag, and the blanks around the URI allowed (the rules file
 * is trimmed when read): `^\s*(?:[Ss][Oo][Cc][Kk][Ee][Tt]://\S+|…)\s*$`.
 */
export const DEVICE_URI_JSON_PATTERN = `^\\s*(?:${DEVICE_URI_SCHEMES.map(
  (s) => `${[...s.prefix].map((c) => (/[a-z]/.test(c) ? `[${c.toUpperCase()}${c}]` : c)).join('')}${s.rest}`,
).join('|')})\\s*$`;
