/**
 * Customer text is text on every output (issue 21), end to end: a Shopify
 * order whose name, address, note and item hold ESC p (cash drawer), GS V
 * (cut), ESC @, C1 bytes and ZPL commands is imported and shipped against the
 * sandbox over HTTP, with the packing slip on a receipt printer on a loopback
 * TCP port and the label on a fake ZPL printer. The slip's bytes, decoded as
 * a receipt printer reads them, hold no drawer kick and one cut, at the end;
 * the label's ZPL, parsed as a Zebra reads it, runs no command the text
 * brought and prints the text with `?` for each control.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recipientToParty } from '../../../shared/domain/order';
import { CUT, DRAWER_KICK, INIT, controlsIn } from '../../fixtures/hostile-text';
import { shopifyCsv } from '../../fixtures/shopify/generate-shopify-csv';
import { order } from '../../fixtures/shopify/warehouse-order';
import { decodeEscPos, escPosText } from '../../support/escpos';
import { zplCommands, zplFields } from '../../support/zpl';
import { receiptPrinter } from './printing/receipt-printer';
import { orderByNumber, parcel } from './helpers';
import { useStation } from './station-fixture';

let slipPrinter: Awaited<ReturnType<typeof receiptPrinter>>;
const fx = useStation({ options: () => ({ platformTimeoutMs: 5000, printerTimeoutMs: 1000, platformRateLimits: false, slipRetryMs: 100 }) });
const invoke = fx.invoke;

beforeAll(async () => {
  slipPrinter = await receiptPrinter();
});

afterAll(async () => {
  await slipPrinter?.close();
});

/** Waits (polling, with a deadline) until `get` gives a value. */
async function eventually<T>(what: string, get: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const until = Date.now() + 10_000;
  for (;;) {
    const v = await get();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`${what} never happened`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('hostile customer text, imported and shipped', () => {
  it('the slip opens no drawer and cuts once, at the end; the label runs no injected ZPL command', async () => {
    const ship = { name: `Mario${DRAWER_KICK}Rossi${CUT}`, a1: 'Via Roma 1 ^XA^FO0,0^GB812,1218,812^FS^XZ ~JA', city: 'Forl\x9bì', zip: '47121', prov: 'FC', country: 'IT' };
    await invoke('orders.importCsv', {
      fileName: 'hostile.csv',
      content: shopifyCsv(
        order({
          name: '#901',
          id: '6600000009010',
          created: '2026-11-20 10:00:00 +0000',
          email: 'h@example.it',
          ship,
          items: [{ q: '1', n: `${INIT}Tazza${CUT}`, p: '12.00', sku: 'TAZ-1' }],
          notes: `Citofono${DRAWER_KICK}${CUT} ^XZ~JA _5E`,
          total: '12.00',
        }),
      ),
    });
    const o = await orderByNumber(invoke, '#901');
    // The station keeps the text as the customer wrote it: only printing makes it safe.
    expect(o.recipient.name).toBe(ship.name);
    await invoke('slips.settings.set', { printerUri: `socket://127.0.0.1:${slipPrinter.port}`, format: 'escpos', paperWidthMm: 80, when: 'with_label', shopName: 'Bottega Verdi' });
    const created = await invoke('shipping.shipOrder', { orderId: o.id, request: { recipient: recipientToParty(o.recipient), packages: [parcel()] } });
    const trackingNumber = created.shipment.trackingNumber;

    // The slip, as the receipt printer reads it.
    await eventually('the slip printed', async () => ((await invoke('slips.list', { orderId: o.id }))[0]?.state === 'printed' ? true : undefined));
    const slip = await eventually('the slip\'s connection closed', () => slipPrinter.slips[0]);
    const ops = decodeEscPos(slip);
    expect(ops.filter((x) => x.op === 'drawer')).toEqual([]);
    expect(ops.filter((x) => x.op === 'cut')).toEqual([{ op: 'cut', partial: false }]);
    expect(ops.slice(-2).map((x) => x.op)).toEqual(['cut', 'init']); // the library's reset follows the cut
    expect(ops.filter((x) => x.op === 'init')).toHaveLength(2);
    const lines = escPosText(ops);
    expect(lines.flatMap(controlsIn)).toEqual([]);
    const text = lines.join('\n');
    expect(text).toContain('Mario?p0?úRossi?V0');
    expect(text).toContain('1 x ?@Tazza?V0');
    expect(text).toContain(`Tracking ${trackingNumber}`);
    expect(lines.join(' ')).toContain('Notes: Citofono?p0?ú?V0 ^XZ~JA _5E');

    // The label, as the Zebra reads it.
    const zpl = (await fx.printer.job(0)).toString('utf8');
    const names = zplCommands(zpl).map((c) => c.name);
    expect(names.filter((n) => n === '^XA')).toHaveLength(1);
    expect(names.filter((n) => n === '^XZ')).toHaveLength(1);
    expect(names.filter((n) => n.startsWith('~'))).toEqual([]);
    expect(names.filter((n) => n === '^GB' || n === '^FO').length).toBeGreaterThan(0);
    const fields = zplFields(zpl);
    expect(fields.flatMap((f) => controlsIn(f.text))).toEqual([]);
    const texts = fields.map((f) => f.text);
    expect(texts).toContain('MARIO?P0?ÚROSSI?V0');
    expect(fields).toContainEqual({ text: 'VIA ROMA 1 ^XA^FO0,0^GB812,1218,812^FS^XZ ~JA', hex: true });
    expect(texts.some((t) => t.includes('FORL?Ì'))).toBe(true);
  });
});
