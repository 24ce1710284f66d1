/**
 * Hostile customer text on every printed output (issue 21): a name, a note and
 * an item holding ESC p (cash drawer), GS V (cut), ESC @, NUL, DEL, C1 bytes,
 * ZPL commands, ^FH's escape char, bidi overrides, emoji and very long text.
 * Each output is read back with a decoder written apart from the renderer:
 * the slip's bytes with test/support/escpos.ts (no drawer kick, one cut, at
 * the end), the label's ZPL with test/support/zpl.ts (no command the layout
 * did not write, the field data prints the visible text), the PDFs with
 * pdf.js.
 */
import { describe, expect, it } from 'vitest';
import { slipContent, type SlipContent } from '../../../../electron/core/slips/content';
import { escposSlip, type SlipInterface } from '../../../../electron/core/slips/escpos';
import { pdfSlip } from '../../../../electron/core/slips/pdf';
import { renderLabelsPdf, renderLabelsZpl, renderManifestPdf } from '../../../../electron/sandbox/labels';
import type { StationOrder } from '../../../../shared/domain/order';
import { CUT, DRAWER_KICK, EMOJI, HOSTILE, INIT, controlsIn } from '../../../fixtures/hostile-text';
import { decodeEscPos, escPosText } from '../../../support/escpos';
import { pdfTextItems } from '../../../support/pdf-text';
import { zplCommands, zplFields } from '../../../support/zpl';
import { label, manifest } from '../../sandbox/labels/fixtures';

const h = HOSTILE as Required<typeof HOSTILE>;

const order: StationOrder = {
  id: 9,
  shop: 'main',
  paymentStatus: 'paid',
  delivery: 'ship',
  needsFix: [],
  orderNumber: '#2001',
  email: 'x@example.com',
  createdAt: '2026-11-20T10:00:00+01:00',
  source: 'shopify_csv',
  recipient: { name: h.drawer!.input, company: h.bidi!.input, street: h.cut!.input, street2: h.c1!.input, city: 'Forlì', province: 'FC', postalCode: '47121', countryCode: 'IT' },
  items: [
    { name: h.init!.input, sku: h.nulDel!.input, quantity: 1, unitPrice: 5 },
    { name: h.zpl!.input, sku: 'Z', quantity: 1, unitPrice: 5 },
    { name: EMOJI, sku: 'E', quantity: 1, unitPrice: 5 },
  ],
  notes: `${h.tilde!.input} ${DRAWER_KICK}${CUT}${INIT} ${h.lines!.input}`,
  total: 15,
  currency: 'EUR',
  status: 'open',
};

function capture(): SlipInterface & { bytes: Uint8Array | null } {
  const c = {
    bytes: null as Uint8Array | null,
    getPrinterName: () => 'capture',
    isPrinterConnected: async () => true,
    execute: async (buffer: Buffer) => {
      c.bytes = new Uint8Array(buffer);
      return 'ok';
    },
  };
  return c;
}

async function slipBytes(content: SlipContent, paperWidthMm: 80 | 58 = 80): Promise<Uint8Array> {
  const iface = capture();
  await escposSlip(content, { paperWidthMm }, iface).execute();
  if (!iface.bytes) throw new Error('the slip sent nothing');
  return iface.bytes;
}

/** The receipt printer's reading of a slip: no drawer kick, one cut at the end, no reset mid-slip, no control byte in text; its text lines. */
function expectOnlyTheSlipsCommands(bytes: Uint8Array): string[] {
  const ops = decodeEscPos(bytes);
  expect(ops.filter((o) => o.op === 'drawer')).toEqual([]);
  expect(ops.filter((o) => o.op === 'cut')).toHaveLength(1);
  // The cut is the last thing printed: only the library's reset (ESC @) follows it; no other reset in between.
  expect(ops.slice(-2)).toEqual([{ op: 'cut', partial: false }, { op: 'init' }]);
  expect(ops.filter((o) => o.op === 'init')).toHaveLength(2);
  expect(ops[0]).toEqual({ op: 'init' });
  const text = escPosText(ops);
  expect(text.flatMap(controlsIn)).toEqual([]);
  return text;
}

const content = slipContent(order, { shopName: `Bottega${DRAWER_KICK}`, trackingNumber: '1234567890123', nowMs: Date.parse('2026-11-24T10:00:00Z') });

describe('ESC/POS packing slip with hostile text', () => {
  it.each([80, 58] as const)('%i mm: the printer reads no drawer kick, one cut at the end, and the text with ? for each control', async (width) => {
    const text = expectOnlyTheSlipsCommands(await slipBytes(content, width)).join('\n');
    for (const s of ['Bottega?p0?ú', 'Mario?p0?úRossi', 'Fatturagnp.exe', 'Via Roma 1?V0', 'x y?z?', '1 x ?@Tazza', 'SKU a?b?c', '1 x Tazza ? ? ???', 'Tracking 1234567890123'])
      expect(text).toContain(s);
    // The note: its controls as ?, line breaks as spaces (folded to the paper's width by the printer library).
    expect(text.replace(/\n/g, ' ')).toContain('Notes: Citofono ~JA ?p0?ú?V0?@ a b c d e');
    // The ZPL item is just text here, folded onto as many lines as the paper needs.
    expect(text.replace(/\n/g, '')).toContain(h.zpl!.printed);
  });

  it('an order number holding controls prints as text with ?, no barcode; a very long note prints whole, no command in it', async () => {
    const long = `${DRAWER_KICK}${'Lungo '.repeat(2000)}${CUT}`;
    const bytes = await slipBytes({ ...content, orderNumber: `#1${DRAWER_KICK}`, notes: long });
    const ops = decodeEscPos(bytes);
    expect(ops.filter((o) => o.op === 'barcode')).toEqual([]);
    const text = expectOnlyTheSlipsCommands(bytes).join('\n');
    expect(text).toContain('Order #1?p0?ú');
    expect(text.split('Lungo').length - 1).toBe(2000);
  });
});

describe('A4 packing slip with hostile text', () => {
  it('draws without throwing; pdf.js reads the text with ? for each control', async () => {
    const pages = await pdfTextItems(await pdfSlip({ ...content, notes: `${content.notes} ${'Lungo '.repeat(2000)}` }));
    const items = pages.flat();
    for (const s of ['Bottega?p0?ú', 'Mario?p0?úRossi', 'Fatturagnp.exe', 'Via Roma 1?V0', 'x y?z?', '?@Tazza', 'a?b?c', h.zpl!.printed, 'Tazza ? ? ???']) expect(items).toContain(s);
    const note = items.find((t) => t.startsWith('Notes: '));
    expect(note).toMatch(/^Notes: Citofono ~JA \?p0\?ú\?V0\?@ a b c d e Lungo .*\.\.\.$/);
  });

  it('an order number with controls or emoji is drawn as text alone (no Code 128 to fail on)', async () => {
    const items = (await pdfTextItems(await pdfSlip({ ...content, orderNumber: `#1${DRAWER_KICK}\u{1F600}` }))).flat();
    expect(items).toContain('Order #1?p0?ú?');
  });
});

/** A label whose recipient, reference and notes hold the hostile samples. */
const hostileLabel = label(1, 1, {
  recipient: { name: h.drawer!.input, company: EMOJI, street: h.cut!.input, street2: h.fh!.input, city: h.c1!.input, postalCode: '47121', province: 'FC', countryCode: 'IT', phone: h.nulDel!.input },
  reference: h.zpl!.input,
  notes: `${h.tilde!.input} ${h.bidi!.input} ${h.lines!.input}`,
});

describe('ZPL label with hostile text', () => {
  it('runs only the layout\'s commands: one format, no ~ command, the fields print the visible text', () => {
    const zpl = renderLabelsZpl([hostileLabel]);
    const names = zplCommands(zpl).map((c) => c.name);
    const plainNames = zplCommands(renderLabelsZpl([label()])).map((c) => c.name);
    // The same commands as a plain label's, apart from ^FH before the fields that needed it.
    expect(new Set(names.filter((n) => n !== '^FH'))).toEqual(new Set(plainNames));
    expect(names.filter((n) => n.startsWith('~'))).toEqual([]);
    expect(names.filter((n) => n === '^XA')).toHaveLength(1);
    expect(names.filter((n) => n === '^XZ')).toHaveLength(1);
    const fields = zplFields(zpl).map((f) => f.text);
    for (const s of ['MARIO?P0?ÚROSSI', '???', 'VIA ROMA 1?V0', 'SCALA _5E ^FH_ B', '47121 X Y?Z? (FC)', `RIF. / REF.: ${h.zpl!.printed}`]) expect(fields.some((f) => f.includes(s))).toBe(true);
    expect(fields.join(' ')).toContain('NOTE: Citofono ~JA Fatturagnp.exe a b c d e');
    expect(fields.flatMap(controlsIn)).toEqual([]);
  });
});

describe('PDF label and manifest with hostile text', () => {
  it('the PDF label draws and pdf.js reads the visible text', async () => {
    const items = (await pdfTextItems(await renderLabelsPdf([hostileLabel]))).flat();
    for (const s of ['MARIO?P0?ÚROSSI', 'VIA ROMA 1?V0', `RIF. / REF.: ${h.zpl!.printed}`]) expect(items).toContain(s);
  });

  it('the manifest draws and pdf.js reads the visible text', async () => {
    const m = manifest(2);
    m.shipments[0] = { ...m.shipments[0]!, recipientName: `A${DRAWER_KICK}B`, city: 'C\x9bD', reference: 'R~JA' };
    const items = (await pdfTextItems(await renderManifestPdf(m))).flat();
    for (const s of ['A?p0?úB', 'C?D', 'R~JA']) expect(items).toContain(s);
  });
});
