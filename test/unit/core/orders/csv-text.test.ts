/**
 * The text the CSV reader is given (electron/core/orders/csv-text.ts): a
 * UTF-8 source is passed on as its bytes with only its line breaks made LF,
 * also where a CR and its LF fall in two chunks of 64 KiB; the result equals
 * what decoding and re-encoding gave (the path Windows-1252 and UTF-16 take).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodedText, detectEncoding } from '../../../../electron/core/orders/csv-text';

const CHUNK = 64 * 1024;
const noPause = () => Promise.resolve();

/** All the chunks of `decodedText` joined, and how many chunks there were. */
async function read(src: { bytes: Uint8Array } | { text: string }) {
  const { encoding, skip } = await detectEncoding(src, noPause);
  const parts: Buffer[] = [];
  for await (const c of decodedText(src, encoding, skip)) parts.push(c.text);
  return { encoding, text: Buffer.concat(parts).toString('utf8'), chunks: parts.length };
}

/** `n` bytes of ASCII filler then `tail`, so that `tail` starts at byte `n`. */
const at = (n: number, tail: string) => 'x'.repeat(n) + tail;

describe('decodedText of UTF-8 bytes', () => {
  it('passes LF text on byte for byte, in chunks', async () => {
    const text = at(CHUNK * 2 + 10, 'Name,Città\n#1001,Forlì\n');
    const r = await read({ bytes: Buffer.from(text, 'utf8') });
    expect(r.encoding).toBe('utf-8');
    expect(r.chunks).toBeGreaterThan(2);
    expect(r.text).toBe(text);
  });

  it('makes CRLF and a lone CR one LF, also when the CR ends a chunk and its LF starts the next', async () => {
    const crlfSplit = at(CHUNK - 1, '\r\nb\r\n');
    expect((await read({ bytes: Buffer.from(crlfSplit) })).text).toBe(at(CHUNK - 1, '\nb\n'));
    const loneCrAtEnd = at(CHUNK - 1, '\rb');
    expect((await read({ bytes: Buffer.from(loneCrAtEnd) })).text).toBe(at(CHUNK - 1, '\nb'));
    const crLastByte = at(CHUNK - 1, '\r');
    expect((await read({ bytes: Buffer.from(crLastByte) })).text).toBe(at(CHUNK - 1, '\n'));
    const crCrLf = 'a\r\r\nb\rc\r';
    expect((await read({ bytes: Buffer.from(crCrLf) })).text).toBe('a\n\nb\nc\n');
  });

  it('keeps a character whose bytes fall in two chunks whole', async () => {
    const text = at(CHUNK - 1, 'è\r\nà');
    expect((await read({ bytes: Buffer.from(text, 'utf8') })).text).toBe(at(CHUNK - 1, 'è\nà'));
  });

  it('gives the same text as the decoding path (a BOM file) for the same content', async () => {
    const text = at(CHUNK - 2, 'Città\r\nNote "a\r\nb"\rFine\r');
    const plain = await read({ bytes: Buffer.from(text, 'utf8') });
    const withBom = await read({ bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]) });
    expect(plain.encoding).toBe('utf-8');
    expect(withBom.encoding).toBe('utf-8-bom');
    expect(plain.text).toBe(withBom.text);
  });
});

describe('detectEncoding of a file on disk (read 256 KiB at a time into one buffer)', () => {
  const CHECK = 256 * 1024;
  const onDisk = (bytes: Buffer) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'station-csv-text-'));
    const file = path.join(dir, 'export.csv');
    writeFileSync(file, bytes);
    return { src: { path: file }, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  };

  it('a character whose bytes fall in two reads is UTF-8; a bad byte in a later read makes the file Windows-1252', async () => {
    for (const [bytes, expected] of [
      [Buffer.from(at(CHECK - 1, 'è,Forlì\n'), 'utf8'), 'utf-8'],
      [Buffer.concat([Buffer.from(at(CHECK * 2 + 5, 'Forl'), 'utf8'), Buffer.from([0xec]), Buffer.from('\n')]), 'windows-1252'],
      [Buffer.concat([Buffer.from(at(CHECK * 3 - 1, ''), 'utf8'), Buffer.from('é', 'utf8').subarray(0, 1)]), 'windows-1252'],
    ] as const) {
      const { src, cleanup } = onDisk(bytes);
      try {
        expect((await detectEncoding(src, noPause)).encoding).toBe(expected);
      } finally {
        cleanup();
      }
    }
  });
});
