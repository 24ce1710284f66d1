/**
 * Reads a ZPL II stream into commands the way a Zebra printer's parser does
 * (Zebra ZPL II Programming Guide, "ZPL Commands" and `^CC`/`~CC`, `^CT`/`~CT`,
 * `^CD`/`~CD`), so the station can change a command's numbers and put every
 * other byte back exactly as it was.
 *
 * - A command is a prefix (format `^`, control `~` unless changed) and a
 *   two-character name (`^FO`, `~DG`, `^A0`: the font letter is the second
 *   character); its parameters run to the next prefix of either kind.
 * - `^CCx`/`~CCx` make `x` the format prefix, `^CTx`/`~CTx` the control
 *   prefix, `^CDx`/`~CDx` the parameter delimiter, from the next command on.
 * - Field data (`^FD`, `^FV`, `^SN`), comments (`^FX`) and graphic data
 *   (`^GF`, `~DG`) are parameters like any other: they end at the next prefix,
 *   as they do on the printer (a prefix inside field data needs `^FH`).
 * - Text before the first prefix (a BOM, blank lines) is kept as a `text` token.
 *
 * Joining every token's `raw` gives the input back, byte for byte (the input
 * is a latin1 string: one character per byte).
 */

/** One piece of the stream: a command, or text outside any command. */
export interface ZplToken {
  kind: 'command' | 'text';
  /** The prefix character as written (`^`, `~`, or the one set by `^CC`/`^CT`). */
  prefix: string;
  /** Upper-cased two-character name (`FO`, `A0`, `GF`, `DG`); '' for text. */
  name: string;
  /** Parameters as written, up to the next prefix (line breaks included). */
  params: string;
  /** The parameter delimiter in force for this command (`,` unless `^CD` changed it). */
  delimiter: string;
  /** The exact source of the token. */
  raw: string;
  /** Whether the prefix is the control prefix (`~` by default). */
  control: boolean;
}

/**
 * The tokens of a ZPL stream, in order.
 * @param zpl the stream as a latin1 string (one character per byte)
 * @returns tokens whose `raw` joined give `zpl` back
 */
export function lexZpl(zpl: string): ZplToken[] {
  const tokens: ZplToken[] = [];
  let format = '^';
  let control = '~';
  let delimiter = ',';
  let i = 0;
  const isPrefix = (c: string): boolean => c === format || c === control;
  // Leading text before the first command.
  let start = 0;
  while (i < zpl.length && !isPrefix(zpl[i]!)) i++;
  if (i > start) tokens.push({ kind: 'text', prefix: '', name: '', params: zpl.slice(start, i), delimiter, raw: zpl.slice(start, i), control: false });
  while (i < zpl.length) {
    start = i;
    const prefix = zpl[i]!;
    const isControl = prefix === control && prefix !== format;
    const name = zpl.slice(i + 1, i + 3).toUpperCase();
    let j = i + 1 + Math.min(2, zpl.length - i - 1);
    // A prefix-change command takes exactly one character: the new prefix or delimiter.
    if (name === 'CC' || name === 'CT' || name === 'CD') {
      const arg = zpl[j] ?? '';
      j += arg ? 1 : 0;
      tokens.push({ kind: 'command', prefix, name, params: arg, delimiter, raw: zpl.slice(start, j), control: isControl });
      if (arg) {
        if (name === 'CC') format = arg;
        else if (name === 'CT') control = arg;
        else delimiter = arg;
      }
      // Whatever follows up to the next prefix belongs to no command (line breaks).
      const k = j;
      while (j < zpl.length && !isPrefix(zpl[j]!)) j++;
      if (j > k) tokens.push({ kind: 'text', prefix: '', name: '', params: zpl.slice(k, j), delimiter, raw: zpl.slice(k, j), control: false });
      i = j;
      continue;
    }
    while (j < zpl.length && !isPrefix(zpl[j]!)) j++;
    tokens.push({ kind: 'command', prefix, name, params: zpl.slice(start + 3, j), delimiter, raw: zpl.slice(start, j), control: isControl });
    i = j;
  }
  return tokens;
}

/** A command rebuilt with new parameters (prefix and name as written). */
export function withParams(t: ZplToken, params: string): string {
  return t.raw.slice(0, 3) + params;
}
