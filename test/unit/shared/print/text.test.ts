/**
 * The one rule for customer text on printed outputs (issue 21,
 * shared/print/text.ts), checked with hostile samples and read back by
 * decoders written apart from it: iconv-lite's code page 858 for ESC/POS, the
 * test ZPL parser (^FH hex decoding) for ZPL, pdf.js for PDFs.
 */
import iconv from 'iconv-lite';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { escposText, pdfText, printableText, zplFieldData } from '../../../../shared/print/text';
import { EMOJI, HOSTILE, controlsIn } from '../../../fixtures/hostile-text';
import { pdfTextItems } from '../../../support/pdf-text';
import { zplCommands, zplFields } from '../../../support/zpl';

const samples = Object.entries(HOSTILE);

describe('printableText', () => {
  it.each(samples)('%s: control characters as ?, line breaks as spaces, invisible marks dropped', (_name, s) => {
    expect(printableText(s.input)).toBe(s.printed);
    expect(printableText(s.printed)).toBe(s.printed); // idempotent
  });

  it('keeps every printable character (emoji too) and composes accents; a lone surrogate is ?', () => {
    expect(printableText('Forli\u0300 Caffè € ½')).toBe('Forlì Caffè € ½');
    expect(printableText(EMOJI)).toBe('Tazza \u2615 \u{1F600} \u{1F468}\u{1F469}\u{1F467}');
    expect(printableText('a\ud800b\udc00')).toBe('a?b?');
    expect(printableText('\u2764\ufe0f')).toBe('\u2764');
  });

  it('leaves no C0, DEL, C1, line/paragraph separator or bidi control in any string', () => {
    let all = '';
    for (let cp = 0; cp < 0x3000; cp++) all += String.fromCodePoint(cp);
    expect(controlsIn(printableText(all))).toEqual([]);
    expect(printableText(all)).not.toMatch(/[\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]/);
  });
});

describe('escposText', () => {
  /** The text as code page 858 bytes, as node-thermal-printer sends it. */
  const bytes = (s: string) => [...iconv.encode(s, 'CP858')];

  it.each(samples)('%s: one printable CP858 byte a character, no command byte', (_name, s) => {
    const out = escposText(s.input);
    expect(out).toBe(s.printed);
    const b = bytes(out);
    expect(b).toHaveLength([...out].length);
    expect(b.filter((x) => x < 0x20 || x === 0x7f)).toEqual([]);
    expect(iconv.decode(Buffer.from(b), 'CP858')).toBe(out);
  });

  it('every code point to U+2FFF and the emoji: only printable bytes, each character one byte', () => {
    let all = EMOJI;
    for (let cp = 0; cp < 0x3000; cp++) all += String.fromCodePoint(cp);
    const out = escposText(all);
    const b = bytes(out);
    expect(b).toHaveLength([...out].length);
    expect(b.filter((x) => x < 0x20 || x === 0x7f)).toEqual([]);
    expect(escposText(EMOJI)).toBe('Tazza ? ? ???');
  });

  it('keeps to code page 858: look-alikes for dashes and quotes, ? for what it lacks', () => {
    expect(escposText('“Caffè” – 5 € … Ñandú 東京')).toBe('"Caffè" - 5 € ... Ñandú ??');
  });
});

describe('zplFieldData', () => {
  /** A one-field format with the field as the function writes it. */
  const format = (text: string) => {
    const { fh, data } = zplFieldData(text);
    return `^XA^CI28^FO10,10^A0N,30,30${fh}^FD${data}^FS^XZ`;
  };

  it.each(samples)('%s: the printer reads back the visible text, and no command but the field\'s own', (_name, s) => {
    const zpl = format(s.input);
    const names = zplCommands(zpl).map((c) => c.name);
    const hex = /[\^~]/.test(s.printed);
    expect(names).toEqual(['^XA', '^CI', '^FO', '^A0', ...(hex ? ['^FH'] : []), '^FD', '^FS', '^XZ']);
    expect(zplFields(zpl)).toEqual([{ text: s.printed, hex }]);
  });

  it('escapes ^, ~ and the escape char _ with ^FH_ only when needed; a backslash prints as /', () => {
    expect(zplFieldData('plain_text')).toEqual({ fh: '', data: 'plain_text' });
    expect(zplFieldData('a^b~c_d')).toEqual({ fh: '^FH_', data: 'a_5Eb_7Ec_5Fd' });
    expect(zplFieldData('a\\&b')).toEqual({ fh: '', data: 'a/&b' });
    expect(zplFieldData('x\x1b~JA\r\n')).toEqual({ fh: '^FH_', data: 'x?_7EJA  ' });
  });

  it('a very long field with commands throughout stays one field', () => {
    const long = '^XZ~JA_'.repeat(3000);
    const zpl = format(long);
    expect(zplCommands(zpl).map((c) => c.name)).toEqual(['^XA', '^CI', '^FO', '^A0', '^FH', '^FD', '^FS', '^XZ']);
    expect(zplFields(zpl)[0]!.text).toBe(long);
  });

  it('emoji travel as UTF-8 (^CI28), whole', () => {
    expect(zplFields(format(EMOJI))[0]!.text).toBe('Tazza \u2615 \u{1F600} \u{1F468}\u{1F469}\u{1F467}');
  });
});

describe('pdfText', () => {
  it('any text can be drawn in Helvetica, and pdf.js reads back the visible text', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const charset = new Set(font.getCharacterSet());
    const page = doc.addPage([595, 842]);
    let all = '';
    for (let cp = 0; cp < 0x3000; cp++) all += String.fromCodePoint(cp);
    const inputs = [...samples.map(([, s]) => s.input), EMOJI, all];
    // Without the rule pdf-lib refuses these (WinAnsi cannot encode them).
    expect(() => font.encodeText(HOSTILE.drawer!.input)).toThrow();
    inputs.forEach((t, i) => page.drawText(pdfText(t, charset), { x: 10, y: 800 - i * 14, size: 4, font }));
    const [items = []] = await pdfTextItems(await doc.save());
    // pdf.js shows a run of spaces as one.
    for (const [, s] of samples) expect(items).toContain(s.printed.replace(/ +/g, ' '));
    expect(items).toContain('Tazza ? ? ???');
  });
});
