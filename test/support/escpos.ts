/**
 * Decodes an ESC/POS command stream into what a receipt printer would do
 * (Epson ESC/POS reference), so slip tests check text, barcodes and the cut
 * rather than opaque bytes. Text is decoded from code page 858 when ESC t 19
 * selected it (iconv-lite, as node-thermal-printer encodes it).
 */
import iconv from 'iconv-lite';

/** One decoded command or line of text. */
export type EscPosOp =
  | { op: 'init' }
  | { op: 'codePage'; page: number }
  | { op: 'align'; align: 'left' | 'center' | 'right' }
  | { op: 'bold'; on: boolean }
  | { op: 'size'; width: number; height: number }
  | { op: 'text'; text: string }
  | { op: 'barcode'; type: 'code128'; data: string; hri: number; height: number; moduleWidth: number }
  | { op: 'cut'; partial: boolean }
  /** ESC p m t1 t2 or DLE DC4 1 m t: pulse a cash-drawer kick connector. */
  | { op: 'drawer'; pin: number }
  | { op: 'other'; bytes: number[] };

/**
 * The ops of `bytes`. Text runs end at LF (one `text` op a line).
 * @throws Error on a command this decoder does not know (so a test notices new output)
 */
export function decodeEscPos(bytes: Uint8Array): EscPosOp[] {
  const ops: EscPosOp[] = [];
  let page = 0;
  let run: number[] = [];
  let hri = 0;
  let height = 162;
  let moduleWidth = 3;
  const flush = () => {
    if (run.length) ops.push({ op: 'text', text: iconv.decode(Buffer.from(run), page === 19 ? 'CP858' : 'CP437') });
    run = [];
  };
  let i = 0;
  /** Records `op` (when given) and moves past the command's `len` bytes. */
  const take = (len: number, op?: EscPosOp) => {
    if (op) ops.push(op);
    i += len;
  };
  while (i < bytes.length) {
    const b = bytes[i]!;
    const n1 = bytes[i + 1];
    const n2 = bytes[i + 2] ?? 0;
    if (b === 0x0a) {
      flush();
      if (ops.length && ops[ops.length - 1]!.op !== 'text') ops.push({ op: 'text', text: '' });
      take(1);
    } else if (b === 0x1b) {
      flush();
      if (n1 === 0x40) take(2, { op: 'init' });
      else if (n1 === 0x74) {
        page = n2;
        take(3, { op: 'codePage', page: n2 });
      } else if (n1 === 0x61) take(3, { op: 'align', align: n2 === 1 || n2 === 0x31 ? 'center' : n2 === 2 || n2 === 0x32 ? 'right' : 'left' });
      else if (n1 === 0x45) take(3, { op: 'bold', on: n2 === 1 });
      else if (n1 === 0x21) take(3, { op: 'size', width: n2 & 0x20 ? 2 : 1, height: n2 & 0x10 ? 2 : 1 }); // ESC ! print mode
      else if (n1 === 0x4d || n1 === 0x2d || n1 === 0x7b || n1 === 0x47 || n1 === 0x33 || n1 === 0x64) take(3, { op: 'other', bytes: [b, n1, n2] });
      else if (n1 === 0x32) take(2, { op: 'other', bytes: [b, n1] });
      else if (n1 === 0x70) take(5, { op: 'drawer', pin: n2 & 1 });
      else throw new Error(`Unknown ESC command 0x${(n1 ?? 0).toString(16)} at byte ${i}`);
    } else if (b === 0x1d) {
      flush();
      if (n1 === 0x21) take(3, { op: 'size', width: ((n2 >> 4) & 7) + 1, height: (n2 & 7) + 1 });
      else if (n1 === 0x48) {
        hri = n2;
        take(3);
      } else if (n1 === 0x66) take(3);
      else if (n1 === 0x77) {
        moduleWidth = n2;
        take(3);
      } else if (n1 === 0x68) {
        height = n2;
        take(3);
      } else if (n1 === 0x6b && n2 === 0x49) {
        const len = bytes[i + 3]!;
        const data = Buffer.from(bytes.subarray(i + 4, i + 4 + len)).toString('latin1');
        // `{B` selects code set B; the rest is the data.
        take(4 + len, { op: 'barcode', type: 'code128', data: data.startsWith('{B') ? data.slice(2) : data, hri, height, moduleWidth });
      } else if (n1 === 0x56) take(3, { op: 'cut', partial: n2 === 1 || n2 === 0x31 });
      else if (n1 === 0x42) take(3, { op: 'other', bytes: [b, n1, n2] });
      else throw new Error(`Unknown GS command 0x${(n1 ?? 0).toString(16)} at byte ${i}`);
    } else if (b === 0x10 && n1 === 0x14 && n2 === 0x01) {
      // DLE DC4 1 m t: real-time drawer pulse.
      flush();
      take(5, { op: 'drawer', pin: (bytes[i + 3] ?? 0) & 1 });
    } else if (b === 0x0b || b === 0x0d) {
      // Vertical tab (feed before the cut), carriage return.
      flush();
      take(1);
    } else {
      run.push(b);
      take(1);
    }
  }
  flush();
  return ops;
}

/** The text lines of `ops`, in order (empty lines kept). */
export function escPosText(ops: readonly EscPosOp[]): string[] {
  return ops.flatMap((o) => (o.op === 'text' ? [o.text] : []));
}
