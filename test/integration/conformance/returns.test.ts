/**
 * Conformance: returns (spec: Resources > Shipment `returnTrackingNumber`,
 * `warning`; Label, "For a carrier with automatic return, the return label is
 * the second page of the same PDF"; States > status 7 returned to sender;
 * Financial records > return lists) over HTTP against the sandbox.
 *
 * The demo contract with an automatic return is Bottega Verdi's GLS Economy
 * (seed.ts `automaticReturn`); `sandbox:return-failed` in `options.notes`
 * makes the carrier refuse the return, `sandbox:refused` sends the parcel back.
 */
import { PDFArray, PDFDocument, PDFRawStream, decodePDFRawStream, type PDFPage } from 'pdf-lib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../electron/sandbox/index';
import { Paginated } from '../../../shared/platform/common';
import { ReturnList, ReturnListDetail } from '../../../shared/platform/finance';
import { CreatedShipment, Shipment } from '../../../shared/platform/resources';
import { MONDAY_2026_09_14, pkg, recipient, start, type Caller } from '../sandbox/helpers';
import { advance, renewingCaller } from './admin-client';

/** Bottega Verdi's GLS Economy: the reseller contract with automatic return. */
const GLS_ECONOMY = 'eyJjIjoiZ2xzLWVjbyIsInIiOjE3fQ.c2xhdmU';
const ShipmentList = Paginated(Shipment);
const ReturnLists = Paginated(ReturnList);

/**
 * The text a label page shows: its content streams inflated, each `<hex> Tj`
 * string decoded as WinAnsi (windows-1252), joined by newlines.
 */
function pageText(page: PDFPage): string {
  const contents = page.node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray().map((r) => page.doc.context.lookup(r)) : [contents];
  let ops = '';
  for (const st of streams) if (st instanceof PDFRawStream) ops += Buffer.from(decodePDFRawStream(st).decode()).toString('latin1') + '\n';
  const dec = new TextDecoder('windows-1252');
  return [...ops.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)].map((m) => dec.decode(Buffer.from(m[1] ?? '', 'hex'))).join('\n');
}

async function labelPages(pdfBase64: string | null | undefined): Promise<string[]> {
  const doc = await PDFDocument.load(Buffer.from(pdfBase64 ?? '', 'base64'));
  return doc.getPages().map(pageText);
}

describe('conformance: carrier returns', () => {
  let sb: Sandbox;
  let a: Caller;
  beforeEach(async () => {
    ({ sb } = await start({ clock: MONDAY_2026_09_14 }));
    a = renewingCaller(sb, 0);
  });
  afterEach(async () => {
    await sb.close();
  });

  async function create(body: Record<string, unknown>): Promise<CreatedShipment> {
    const r = await a('POST', '/shipments', { recipient: recipient(), packages: [pkg(2)], ...body });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return CreatedShipment.parse(r.body);
  }

  async function detail(ldv: string): Promise<Record<string, unknown>> {
    const r = await a<Record<string, unknown>>('GET', `/shipments/${ldv}`);
    expect(r.status).toBe(200);
    return r.body;
  }

  it('an automatic-return contract gives a return LDV and the return label after the parcel labels', async () => {
    const s = await create({ serviceType: GLS_ECONOMY, packages: [pkg(2), pkg(3)], reference: 'ORD-R1' });
    expect(s.carrier.contractCode).toBe(GLS_ECONOMY);
    expect(s).not.toHaveProperty('warning');
    const ret = s.returnTrackingNumber;
    expect(ret).toMatch(/^GL\d{10}$/);
    // A number of its own, unlike the shipment's and the parcels'.
    expect([s.trackingNumber, ...s.packages.map((p) => p.trackingNumber)]).not.toContain(ret);

    const pages = await labelPages(s.label.pdf);
    expect(pages).toHaveLength(s.parcels + 1);
    const last = pages[pages.length - 1] ?? '';
    expect(last).toContain(ret);
    expect(last).toMatch(/RESO/);
    expect(last).toMatch(/RETURN/);
    expect(last).toContain(s.trackingNumber); // names the outbound shipment it returns
    for (const p of pages.slice(0, -1)) {
      expect(p).not.toContain(ret);
      expect(p).not.toMatch(/RESO/);
    }
    // The parcel labels in order; the return label goes back from the recipient to the sender.
    s.packages.forEach((p, i) => expect(pages[i]).toContain(p.trackingNumber));
    // (the label prints the sender as given and the recipient in capitals)
    expect(pages[0]).toContain('Via dei Missaglia 97');
    expect(pages[0]).toContain('VIA TORINO 15');
    expect(last).toContain('Via Torino 15');
    expect(last).toContain('VIA DEI MISSAGLIA 97');

    // ZPL: the outbound labels only.
    const zpl = Buffer.from(s.label.zpl ?? '', 'base64').toString('utf8');
    expect(zpl.match(/\^XA/g)?.length).toBe(s.parcels);
    expect(zpl).not.toContain(ret);

    // Detail, list and the label endpoint agree.
    expect(await detail(s.trackingNumber)).toMatchObject({ returnTrackingNumber: ret });
    const list = ShipmentList.parse((await a('GET', `/shipments?trackingNumber=${s.trackingNumber}`)).body);
    expect(list.data.map((x) => x.returnTrackingNumber)).toEqual([ret]);
    const label = await a<{ pdf: string }>('GET', `/shipments/${s.trackingNumber}/label?format=pdf`);
    expect(await labelPages(label.body.pdf)).toEqual(pages);
  });

  it('every automatic return takes a fresh LDV', async () => {
    const made = await Promise.all([1, 2, 3].map((i) => create({ serviceType: GLS_ECONOMY, reference: `ORD-R${i}` })));
    const all = made.flatMap((s) => [s.trackingNumber, s.returnTrackingNumber]);
    expect(new Set(all).size).toBe(6);
  });

  it('a return the carrier cannot create leaves a valid shipment with a warning on creation only', async () => {
    const s = await create({ serviceType: GLS_ECONOMY, packages: [pkg(2), pkg(1)], options: { notes: 'Fragile sandbox:return-failed' } });
    expect(s.warning).toEqual(expect.any(String));
    expect(s.warning).toMatch(/return/i);
    expect(s.returnTrackingNumber).toBeNull();
    expect(await labelPages(s.label.pdf)).toHaveLength(s.parcels);

    const d = await detail(s.trackingNumber);
    expect(d).not.toHaveProperty('warning');
    expect(d).toMatchObject({ trackingNumber: s.trackingNumber, returnTrackingNumber: null, cancelled: false });
    const del = await a('DELETE', `/shipments/${s.trackingNumber}`);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ trackingNumber: s.trackingNumber, cancelled: true, refunded: s.cost.total });
  });

  it('a contract without automatic return has no return LDV and no extra page', async () => {
    const s = await create({ serviceType: 'BRT-EXP-NAZ', packages: [pkg(2), pkg(3)] });
    expect(s.returnTrackingNumber).toBeNull();
    expect(s).not.toHaveProperty('warning');
    const pages = await labelPages(s.label.pdf);
    expect(pages).toHaveLength(2);
    for (const p of pages) expect(p).not.toMatch(/RESO/);
    // The failure token means nothing without an automatic return.
    const t = await create({ serviceType: 'BRT-EXP-NAZ', options: { notes: 'sandbox:return-failed' } });
    expect(t).not.toHaveProperty('warning');
  });

  it('a shipment returned to sender gets the return LDV, in the detail, the list and the return list', async () => {
    // return-failed first: the scenario token after it still counts.
    const s = await create({ serviceType: 'BRT-EXP-NAZ', reference: 'ORD-BACK', options: { notes: 'sandbox:return-failed sandbox:refused' } });
    const other = await create({ serviceType: 'BRT-EXP-NAZ', options: { notes: 'sandbox:delivered' } });
    expect(s.returnTrackingNumber).toBeNull();

    await advance(sb, { days: 10 });
    const d = Shipment.parse(await detail(s.trackingNumber));
    expect(d.status.code).toBe(7);
    const ret = d.returnTrackingNumber;
    expect(ret).toMatch(/^BR\d{10}$/);
    expect(ret).not.toBe(s.trackingNumber);
    expect(Shipment.parse(await detail(other.trackingNumber))).toMatchObject({ status: { code: 5 }, returnTrackingNumber: null });
    const list = ShipmentList.parse((await a('GET', '/shipments?status=7')).body);
    expect(list.data.map((x) => [x.trackingNumber, x.returnTrackingNumber])).toEqual([[s.trackingNumber, ret]]);

    // The 1st of the month at 06:00 the return list is made.
    await advance(sb, { days: 8 });
    const lists = ReturnLists.parse((await a('GET', '/returns')).body);
    expect(lists.data).toHaveLength(1);
    const rl = ReturnListDetail.parse((await a('GET', `/returns/${lists.data[0]!.id}`)).body);
    expect(rl.shipments).toEqual([expect.objectContaining({ trackingNumber: s.trackingNumber, returnTrackingNumber: ret, reference: 'ORD-BACK' })]);
  });
});
