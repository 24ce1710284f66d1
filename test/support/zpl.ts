/**
 * Reads a ZPL II stream the way a Zebra printer's parser does (Zebra ZPL II
 * Programming Guide: command prefixes, ^FD, ^FH, ^CI28), so label tests check
 * the commands a printer would run and the text it would print, not the
 * renderer's own strings. Written independently of shared/print/text.ts: it
 * decodes, it does not escape.
 *
 * - Every `^` or `~` starts a command (the default prefixes; the station never
 *   changes them with ^CC/~CC). The command's name is the prefix and the next
 *   two characters (`^FD`, `~JA`); its parameters run to the next prefix.
 * - `^FH<c>` (default `_`) makes the next `^FD`'s `<c>XX` pairs hex bytes.
 * - Field data is UTF-8 (`^CI28`).
 */

/** One command: `name` with its prefix (`^FO`, `~JA`), `params` as written (trailing line break dropped). */
export interface ZplCommand {
  name: string;
  params: string;
}

/** One `^FD` field as printed: `text` after ^FH hex decoding; `hex` whether a ^FH applied. */
export interface ZplField {
  text: string;
  hex: boolean;
}

/** The commands of `zpl`, in order. Text before the first prefix is dropped (a printer ignores it). */
export function zplCommands(zpl: string): ZplCommand[] {
  return [...zpl.matchAll(/([\^~])([^^~]*)/g)].map((m) => {
    const body = (m[2] ?? '').replace(/\r?\n$/, '');
    return { name: `${m[1]}${body.slice(0, 2).toUpperCase()}`, params: body.slice(2) };
  });
}

/**
 * The `^FD` fields of `zpl` as a printer prints them.
 * @throws Error on a ^FH escape that is not two hex digits (a printer would print garbage)
 */
export function zplFields(zpl: string): ZplField[] {
  const fields: ZplField[] = [];
  let escape: string | null = null;
  for (const c of zplCommands(zpl)) {
    if (c.name === '^FH') escape = c.params.charAt(0) || '_';
    else if (c.name === '^FD') {
      if (escape === null) fields.push({ text: c.params, hex: false });
      else {
        const bytes: number[] = [];
        const src = Buffer.from(c.params, 'utf8');
        const esc = escape.charCodeAt(0);
        for (let i = 0; i < src.length; i++) {
          if (src[i] === esc) {
            const hex = src.subarray(i + 1, i + 3).toString('latin1');
            if (!/^[0-9A-Fa-f]{2}$/.test(hex)) throw new Error(`bad ^FH escape ${JSON.stringify(escape + hex)} in ${JSON.stringify(c.params)}`);
            bytes.push(parseInt(hex, 16));
            i += 2;
          } else bytes.push(src[i]!);
        }
        fields.push({ text: Buffer.from(bytes).toString('utf8'), hex: true });
      }
      escape = null;
    } else if (c.name === '^FS') escape = null;
  }
  return fields;
}
