/**
 * Customer text on every printed output (issue 21): names, addresses, notes
 * and item titles come from shop exports and the platform, and a byte of
 * them must never become a printer command. ESC p (0x1B 0x70) opens a cash
 * drawer and GS V (0x1D 0x56) cuts the paper on a receipt printer; `^` and
 * `~` start a command in ZPL; Helvetica in a PDF cannot encode a control
 * character at all (pdf-lib throws). One function per output, used wherever
 * that output is made:
 *
 * - {@link escposText}: packing slips on receipt printers (ESC/POS, code page 858);
 * - {@link zplFieldData}: every `^FD` the station or the sandbox writes;
 * - {@link pdfText}: every string drawn with a standard font (labels, slips,
 *   manifests, invoices).
 *
 * All three first apply {@link printableText}, the one rule for control
 * characters:
 *
 * - line-breaking controls (TAB, LF, VT, FF, CR, NEL U+0085, LINE SEPARATOR
 *   U+2028, PARAGRAPH SEPARATOR U+2029) become a space: they are layout in a
 *   pasted address or note, and every output prints a field on one line;
 * - every other control (C0 0x00–0x1F, DEL 0x7F, C1 0x80–0x9F) and a lone
 *   UTF-16 surrogate becomes the visible mark `?` ({@link UNPRINTABLE_MARK}),
 *   the same mark each output already prints for a character its font or code
 *   page lacks: the packer sees that something was there;
 * - invisible format characters (Unicode category Cf: bidi marks, embeddings,
 *   overrides and isolates U+200E/F, U+202A–E, U+2066–9, U+061C; zero-width
 *   space/joiners U+200B–D; word joiner; BOM U+FEFF; soft hyphen) and emoji
 *   variation selectors (U+FE00–FE0F) are removed: they draw nothing, and
 *   every output lays text out left to right in the order it was typed.
 */
import iconv from 'iconv-lite';

/** What an output prints in place of a character it must not or cannot print. */
const UNPRINTABLE_MARK = '?';

const LINE_BREAKING = new Set(['\t', '\n', '\v', '\f', '\r', '\u0085', '\u2028', '\u2029']);
const INVISIBLE = /^[\p{Cf}\ufe00-\ufe0f]$/u;

/** Whether code point `cp` is a C0 or C1 control, DEL, or a (lone) UTF-16 surrogate. */
function isControl(cp: number): boolean {
  return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || (cp >= 0xd800 && cp <= 0xdfff);
}

/**
 * `text` with no control character left (the rule in the module doc), NFC
 * composed (a decomposed "e + accent" from a Mac keyboard becomes "è").
 * Spaces are not collapsed or trimmed: that is each layout's choice.
 * Idempotent; never throws.
 */
export function printableText(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return text;
  let out = '';
  for (const ch of text) {
    if (LINE_BREAKING.has(ch)) out += ' ';
    else if (isControl(ch.codePointAt(0) ?? 0)) out += UNPRINTABLE_MARK;
    else if (!INVISIBLE.test(ch)) out += ch;
  }
  return out.normalize('NFC');
}

// Typographic characters that code page 858 lacks, as their ASCII look-alikes.
const CP858_LOOKALIKES: Record<string, string> = { '\u2013': '-', '\u2014': '-', '\u2018': "'", '\u2019': "'", '\u201a': "'", '\u201c': '"', '\u201d': '"', '\u201e': '"', '\u2026': '...', '\u00a0': ' ' };

const cp858Cache = new Map<string, boolean>();

/** Whether `ch` is one printable byte of code page 858 (not a control byte) that decodes back to `ch`. */
function isCp858Printable(ch: string): boolean {
  let ok = cp858Cache.get(ch);
  if (ok === undefined) {
    const bytes = iconv.encode(ch, 'CP858');
    const b = bytes[0] ?? 0;
    ok = bytes.length === 1 && b >= 0x20 && b !== 0x7f && iconv.decode(bytes, 'CP858') === ch;
    cp858Cache.set(ch, ok);
  }
  return ok;
}

/**
 * Text for an ESC/POS receipt printer in code page 858 (ESC t 19): the
 * control rule of {@link printableText}, dashes and quotes as their ASCII
 * look-alikes, and `?` for anything else the page lacks (emoji, CJK). Every
 * character of the result encodes to exactly one CP858 byte ≥ 0x20 other than
 * 0x7F, so no part of it is an ESC/POS command (ESC, GS, FS, DLE, ...) and
 * node-thermal-printer never switches code page for it. Never throws.
 */
export function escposText(text: string): string {
  let out = '';
  for (const ch of printableText(text)) {
    const lookalike = CP858_LOOKALIKES[ch];
    if (lookalike !== undefined) out += lookalike;
    else out += isCp858Printable(ch) ? ch : UNPRINTABLE_MARK;
  }
  return out;
}

/** The `^FH` escape character the station writes (ZPL's default). */
const ZPL_HEX_ESCAPE = '_';

/**
 * Field data for a ZPL `^FD` (Zebra ZPL II Programming Guide: ^FD, ^FH),
 * with `^CI28` (UTF-8) in effect. The control rule of {@link printableText}
 * applies; a backslash becomes `/` (inside `^FB`, `\&` is a line break and
 * printers differ on `\\`). When the text holds `^` or `~`, which would start
 * a command inside the data, the field is written with `^FH_` and they become
 * the hex escapes `_5E` and `_7E`, and `_` itself `_5F`; without them `_` is
 * written as is. Use as `${fh}^FD${data}^FS`.
 *
 * @returns `fh`: `^FH_` or empty; `data`: what follows `^FD`. Never throws.
 */
export function zplFieldData(text: string): { fh: string; data: string } {
  const t = printableText(text).replace(/\\/g, '/');
  if (!/[\^~]/.test(t)) return { fh: '', data: t };
  const data = t.replace(/[_^~]/g, (c) => `${ZPL_HEX_ESCAPE}${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return { fh: `^FH${ZPL_HEX_ESCAPE}`, data };
}

/**
 * Text a PDF standard font can draw: the control rule of
 * {@link printableText}, then `?` for every character outside `charset`
 * (the font's code points, `PDFFont.getCharacterSet()`; WinAnsi for
 * Helvetica). pdf-lib's `drawText`/`encodeText` throw on a character the
 * font cannot encode; on the result they cannot. Never throws.
 */
export function pdfText(text: string, charset: ReadonlySet<number>): string {
  let out = '';
  for (const ch of printableText(text)) out += charset.has(ch.codePointAt(0) ?? 0) ? ch : UNPRINTABLE_MARK;
  return out;
}
