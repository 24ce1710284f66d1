/**
 * The receipt-printer slip (issue 11) decoded as a printer would read it:
 * init and code page 858, the shop name big, the order number as Code 128,
 * recipient, lines with SKU, notes, tracking number, cut at the end; Italian
 * accents and € in code page 858; lines fold within 48 (80 mm) / 32 (58 mm)
 * characters.
 */
import { describe, expect, it } from 'vitest';
import { slipContent, type SlipContent } from '../../../../electron/core/slips/content';
import { escposSlip, lineChars, type SlipInterface } from '../../../../electron/core/slips/escpos';
import { escposText } from '../../../../shared/print/text';
import type { StationOrder } from '../../../../shared/domain/order';
import { decodeEscPos, escPosText } from '../../../support/escpos';

const order: StationOrder = {
  id: 7,
  shop: 'main',
  paymentStatus: 'paid',
  delivery: 'ship',
  needsFix: [],
  orderNumber: '#1001',
  email: 'giulia@example.com',
  createdAt: '2026-11-20T10:00:00+01:00',
  source: 'shopify_csv',
  recipient: { name: 'Niccolò Società', company: 'Caffè Però S.r.l.', street: 'Via Roma 12', street2: 'Scala B', city: 'Forlì', province: 'FC', postalCode: '47121', countryCode: 'IT' },
  items: [
    { name: 'Tazza grande con manico lungo e decorazione fatta a mano in Umbria', sku: 'TAZ-1', quantity: 2, unitPrice: 12 },
    { name: 'Piattino', quantity: 1, unitPrice: 5 },
    { name: 'Già spedito', sku: 'OLD', quantity: 1, unitPrice: 5, fulfilled: true },
  ],
  notes: 'Lasciare al portiere,\nnon suonare',
  total: 29,
  currency: 'EUR',
  status: 'open',
};

/** The library's interface shape, keeping what `execute` is handed. */
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

async function slipOps(content: SlipContent, paperWidthMm: 80 | 58) {
  const iface = capture();
  await escposSlip(content, { paperWidthMm }, iface).execute();
  expect(iface.bytes).not.toBeNull();
  return decodeEscPos(iface.bytes!);
}

describe('ESC/POS packing slip', () => {
  const content = slipContent(order, { shopName: 'Bottega Verdi — Firenze €', trackingNumber: '1234567890123', nowMs: Date.parse('2026-11-24T23:30:00Z') });

  it('says who, what and where, with the order number as Code 128 and a cut at the end', async () => {
    const ops = await slipOps(content, 80);
    expect(ops[0]).toEqual({ op: 'init' });
    expect(ops).toContainEqual({ op: 'codePage', page: 19 });
    const text = escPosText(ops);
    // Code page 858 has the euro sign and Italian accents; the dash prints as its look-alike, and the page never changes.
    expect(text).toContain('Bottega Verdi - Firenze €');
    expect(ops.filter((o) => o.op === 'codePage')).toEqual([{ op: 'codePage', page: 19 }]);
    // Rome date: 23:30 UTC on the 24th is the 25th in Italy.
    expect(text).toContain('Order #1001 - 25/11/2026');
    const barcode = ops.find((o) => o.op === 'barcode');
    expect(barcode).toMatchObject({ type: 'code128', data: '#1001', hri: 2, moduleWidth: 3, height: 60 });
    for (const l of ['Niccolò Società', 'Caffè Però S.r.l.', 'Via Roma 12', 'Scala B', '47121 Forlì (FC)', 'IT', '1 x Piattino', '   SKU TAZ-1', 'Tracking 1234567890123']) expect(text).toContain(l);
    expect(text.join('\n')).toContain('Notes: Lasciare al portiere, non suonare');
    // Only the lines still to ship.
    expect(text.join('\n')).not.toContain('Già spedito');
    expect(text.some((l) => /^2 lines +3 pieces$/.test(l))).toBe(true);
    // Shop name big and bold.
    const shopAt = ops.findIndex((o) => o.op === 'text' && o.text.startsWith('Bottega'));
    expect(ops.slice(0, shopAt)).toContainEqual({ op: 'bold', on: true });
    expect(ops.slice(0, shopAt).some((o) => o.op === 'size' && o.height === 2)).toBe(true);
    // The cut is the last thing printed (the library resets the printer after it).
    const tail = ops.filter((o) => o.op !== 'text' || o.text !== '').slice(-2);
    expect(tail).toEqual([{ op: 'cut', partial: false }, { op: 'init' }]);
    expect(ops.filter((o) => o.op === 'cut')).toHaveLength(1);
  });

  it('names the pickup point, its text kept as text (issue 24 item 7)', async () => {
    const withPoint = slipContent(order, { shopName: 'Bottega Verdi', trackingNumber: '1234567890123', nowMs: 0, deliveryPoint: 'Edicola Rossi\x1bp, Via Garibaldi 50, 20123 Milano' });
    const ops = await slipOps(withPoint, 80);
    const text = escPosText(ops).join('\n');
    expect(text).toContain('Deliver to pickup point: Edicola Rossi');
    expect(text.replace(/\s+/g, ' ')).toContain('Via Garibaldi 50, 20123 Milano'); // wrapped at the paper's width
    // The ESC in the name reached the printer as text, never as a command: one init at the start, one after the cut.
    expect(ops.filter((o) => o.op === 'init')).toHaveLength(2);
    expect(escPosText(await slipOps(content, 80)).join('\n')).not.toContain('pickup point');
  });

  it("speaks the bench's language on an Italian bench: the slip's own words in Italian, the order's as they are", async () => {
    const it = slipContent(order, { shopName: 'Bottega Verdi', trackingNumber: '1234567890123', nowMs: Date.parse('2026-11-24T23:30:00Z'), language: 'it' });
    const text = escPosText(await slipOps(it, 80));
    for (const l of ['Ordine #1001 - 25/11/2026', 'Destinatario', '   Codice TAZ-1', 'LDV 1234567890123']) expect(text).toContain(l);
    expect(text.join('\n')).toContain('Note: Lasciare al portiere, non suonare');
    expect(text.some((l) => /^2 righe +3 pezzi$/.test(l))).toBe(true);
    expect(text.filter((l) => /\b(?:Order|Ship to|SKU|lines|pieces|Notes|Tracking)\b/.test(l))).toEqual([]);
  });

  it('folds long lines to the paper: 48 characters on 80 mm, 32 on 58 mm', async () => {
    expect(lineChars(80)).toBe(48);
    expect(lineChars(58)).toBe(32);
    for (const width of [80, 58] as const) {
      const text = escPosText(await slipOps(content, width));
      expect(Math.max(...text.map((l) => l.length))).toBeLessThanOrEqual(lineChars(width));
      expect(text.join(' ')).toContain('Umbria');
    }
  });

  it('a slip printed before shipping has no tracking line; another shop prints its own name', async () => {
    const other = slipContent({ ...order, shop: 'Istanbul' }, { shopName: 'Bottega Verdi', trackingNumber: null, nowMs: 0 });
    const text = escPosText(await slipOps(other, 80));
    expect(text).toContain('Istanbul');
    expect(text.join('\n')).not.toContain('Tracking');
  });

  it('keeps to code page 858: look-alikes for dashes and quotes, ? for what it lacks', () => {
    expect(escposText('“Caffè” – 5 € … Ñandú 東京')).toBe('"Caffè" - 5 € ... Ñandú ??');
  });
});
