/**
 * The bytes of an import, read in chunks and made into UTF-8 text with LF
 * line breaks, never as one string: a 100 MB export is read 256 KiB at a
 * time.
 *
 * The encoding is found from the bytes (UTF-8 with or without BOM, UTF-16
 * LE/BE by BOM or by its zero bytes, otherwise Windows-1252 as Excel writes
 * it on Windows; decoded with iconv-lite's streaming decoders); whether a
 * file without BOM is UTF-8 is checked over all its bytes first (a quick
 * pass), so every order of one file is decoded the same way. CRLF and lone
 * CR become LF (a file re-saved by Excel is the same file, also inside
 * quoted notes).
 */
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import { ShopifyImportError } from './csv-errors';

/**
 * Where an import's content comes from: bytes in memory, a file on disk
 * (read in chunks), or text already decoded (older screens, tests).
 */
export type CsvSource = { bytes: Uint8Array } | { path: string } | { text: string };

/** How the bytes were decoded. */
export type TextEncoding = 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/** Bytes read from the source at a time. */
const CHUNK_BYTES = 64 * 1024;

/** Size of the source in bytes (text: its UTF-8 bytes). */
export async function sourceSize(src: CsvSource): Promise<number> {
  if ('bytes' in src) return src.bytes.byteLength;
  if ('text' in src) return Buffer.byteLength(src.text, 'utf8');
  return (await fs.promises.stat(src.path)).size;
}

/** The source's bytes from `start`, in chunks of at most {@link CHUNK_BYTES}. */
async function* rawChunks(src: CsvSource, start: number): AsyncGenerator<Buffer> {
  if ('path' in src) {
    for await (const chunk of fs.createReadStream(src.path, { start, highWaterMark: CHUNK_BYTES })) yield chunk as Buffer;
    return;
  }
  const bytes = 'bytes' in src ? Buffer.from(src.bytes.buffer, src.bytes.byteOffset, src.bytes.byteLength) : Buffer.from(src.text, 'utf8');
  for (let i = start; i < bytes.length; i += CHUNK_BYTES) yield bytes.subarray(i, Math.min(bytes.length, i + CHUNK_BYTES));
}

/** The first `n` bytes of the source (fewer when it is shorter). */
async function head(src: CsvSource, n: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let got = 0;
  for await (const c of rawChunks(src, 0)) {
    parts.push(c);
    got += c.length;
    if (got >= n) break;
  }
  return Buffer.concat(parts).subarray(0, n);
}

/**
 * Finds how the source is encoded and how many bytes of BOM to skip.
 * BOM first (UTF-8, UTF-16 LE/BE); without one, UTF-16 is recognised by its
 * zero bytes (ASCII text in UTF-16 has a 0 in every other byte), then strict
 * UTF-8 over the whole source; anything else is Windows-1252.
 * `pause` is awaited between chunks of the UTF-8 check (to let other work run).
 * @throws ShopifyImportError `not_text` for binary content (zero bytes that are not UTF-16).
 */
export async function detectEncoding(src: CsvSource, pause: () => Promise<void>): Promise<{ encoding: TextEncoding; skip: number }> {
  if ('text' in src) return { encoding: 'utf-8', skip: src.text.startsWith('\uFEFF') ? 3 : 0 };
  const buf = await head(src, 4096);
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return { encoding: 'utf-8-bom', skip: 3 };
  if (buf[0] === 0xff && buf[1] === 0xfe) return { encoding: 'utf-16le', skip: 2 };
  if (buf[0] === 0xfe && buf[1] === 0xff) return { encoding: 'utf-16be', skip: 2 };
  let zeroEven = 0;
  let zeroOdd = 0;
  for (let i = 0; i < buf.length; i++) {
    if (buf[i] !== 0) continue;
    if (i % 2 === 0) zeroEven++;
    else zeroOdd++;
  }
  const half = buf.length / 2;
  if (zeroOdd > half * 0.3 && zeroEven < half * 0.05) return { encoding: 'utf-16le', skip: 0 };
  if (zeroEven > half * 0.3 && zeroOdd < half * 0.05) return { encoding: 'utf-16be', skip: 0 };
  if (zeroEven + zeroOdd > 0) {
    throw new ShopifyImportError('not_text', 'This file is not a text (CSV) file. Export the orders from Shopify as CSV.', [
      { line: 1, column: '', message: 'file contains binary data' },
    ]);
  }
  return { encoding: (await isAllUtf8(src, pause)) ? 'utf-8' : 'windows-1252', skip: 0 };
}

/** Bytes read at a time by the UTF-8 check of a file, into one buffer used again and again. */
const CHECK_CHUNK_BYTES = 256 * 1024;

/**
 * A file's bytes in chunks read into one buffer used again for each chunk
 * (each chunk is valid until the next is asked for): the UTF-8 check reads a
 * whole file before the import starts, and a new buffer per chunk left
 * ≈50 MB of freed memory in the process after a 110 MB file.
 */
async function* reusedChunks(file: string): AsyncGenerator<Buffer> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(CHECK_CHUNK_BYTES);
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, null);
      if (bytesRead === 0) return;
      yield buf.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/** Whether every byte of the source is well-formed UTF-8 (checked chunk by chunk, a split character carried over). */
async function isAllUtf8(src: CsvSource, pause: () => Promise<void>): Promise<boolean> {
  let carry: Buffer = Buffer.alloc(0);
  for await (const chunk of 'path' in src ? reusedChunks(src.path) : rawChunks(src, 0)) {
    const buf = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    const cut = wholeCharsLength(buf);
    if (!isUtf8(buf.subarray(0, cut))) return false;
    carry = Buffer.from(buf.subarray(cut));
    await pause();
  }
  return carry.length === 0;
}

/** Length of the longest prefix of `buf` that does not end inside a UTF-8 sequence. */
function wholeCharsLength(buf: Buffer): number {
  let i = buf.length - 1;
  let continuation = 0;
  while (i >= 0 && continuation < 3 && ((buf[i] ?? 0) & 0xc0) === 0x80) {
    i--;
    continuation++;
  }
  if (i < 0) return buf.length;
  const lead = buf[i] ?? 0;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return i + need <= buf.length ? buf.length : i;
}

/** One piece of the decoded text: UTF-8 bytes with LF breaks, and how many bytes of the source it came from. */
export interface TextChunk {
  text: Buffer;
  /** Source bytes read so far (for progress), BOM included. */
  sourceBytes: number;
}

/**
 * The source decoded to UTF-8 with LF line breaks, chunk by chunk. A CR at
 * the end of a chunk is held until the next one shows whether an LF follows.
 */
export async function* decodedText(src: CsvSource, encoding: TextEncoding, skip: number): AsyncGenerator<TextChunk> {
  if (encoding === 'utf-8') {
    yield* lfBytes(src, skip);
    return;
  }
  // iconv-lite (its tables are ≈0.5 MB of code) is loaded only for the files that need it, not at every
  // start of the import's worker thread.
  const decoder = encoding === 'utf-8-bom' ? utf8Decoder() : (await import('iconv-lite')).default.getDecoder(encoding);
  let sourceBytes = skip;
  let heldCr = false;
  const normalize = (piece: string, last: boolean): Buffer => {
    let s = heldCr ? `\r${piece}` : piece;
    heldCr = !last && s.endsWith('\r');
    if (heldCr) s = s.slice(0, -1);
    if (s.includes('\r')) s = s.replace(/\r\n?/g, '\n');
    return Buffer.from(s, 'utf8');
  };
  for await (const chunk of rawChunks(src, skip)) {
    sourceBytes += chunk.length;
    yield { text: normalize(decoder.write(chunk), false), sourceBytes };
  }
  const rest = normalize(decoder.end() ?? '', true);
  if (rest.length > 0) yield { text: rest, sourceBytes };
}

/**
 * {@link decodedText} of a source whose every byte was checked to be UTF-8
 * ({@link detectEncoding} answered `utf-8`): the bytes are already what the
 * reader takes, so they are passed on as read, only CRLF and lone CR made LF
 * (a CR byte is never inside a UTF-8 sequence). Decoding to a string and
 * encoding back was a tenth of an import.
 */
async function* lfBytes(src: CsvSource, skip: number): AsyncGenerator<TextChunk> {
  let sourceBytes = skip;
  let heldCr = false;
  for await (const chunk of rawChunks(src, skip)) {
    sourceBytes += chunk.length;
    if (!heldCr && chunk.indexOf(0x0d) < 0) {
      yield { text: chunk, sourceBytes };
      continue;
    }
    const out = Buffer.allocUnsafe(chunk.length + 1);
    let n = 0;
    let i = 0;
    if (heldCr) {
      out[n++] = 0x0a;
      if (chunk[0] === 0x0a) i = 1;
      heldCr = false;
    }
    for (; i < chunk.length; i++) {
      const b = chunk[i] ?? 0;
      if (b !== 0x0d) out[n++] = b;
      else if (i + 1 === chunk.length) heldCr = true;
      else {
        out[n++] = 0x0a;
        if (chunk[i + 1] === 0x0a) i++;
      }
    }
    yield { text: out.subarray(0, n), sourceBytes };
  }
  if (heldCr) yield { text: Buffer.from([0x0a]), sourceBytes };
}

/** A streaming UTF-8 decoder with iconv-lite's write/end shape (malformed bytes become U+FFFD). */
function utf8Decoder(): { write(b: Buffer): string; end(): string | undefined } {
  const d = new TextDecoder('utf-8');
  return { write: (b) => d.decode(b, { stream: true }), end: () => d.decode() };
}
