/**
 * Conformance: the financial reads (spec: Endpoints > "Invoices, credit, COD
 * lists, returns"; Resources > Financial records) over HTTP against the
 * sandbox: with the seeded history of the demo accounts, and following live
 * shipments through the simulated clock (COD list made and paid, return
 * charged, listed and invoiced, monthly fee).
 */
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../electron/sandbox/index';
import { Paginated } from '../../../shared/platform/common';
import { CodList, CodListDetail, CreditMovement, Invoice, InvoiceDetail, InvoicePdf, ReturnList, ReturnListDetail } from '../../../shared/platform/finance';
import { CreatedShipment, CreditBalance, Pickup } from '../../../shared/platform/resources';
import { MONDAY_2026_09_14, pkg, recipient, start, type Caller, type ErrorBody } from '../sandbox/helpers';
import { admin, renewingCaller } from './admin-client';

const InvoiceList = Paginated(Invoice);
const MovementList = Paginated(CreditMovement);
const CodLists = Paginated(CodList);
const ReturnLists = Paginated(ReturnList);
const cents = (n: number) => Math.round(n * 100);
const sum = (xs: number[]) => xs.reduce((t, x) => t + cents(x), 0) / 100;

describe('conformance: financial records with the seeded history', () => {
  let sb: Sandbox;
  let a: Caller;
  let b: Caller;
  beforeAll(async () => {
    ({ sb, a, b } = await start({ clock: MONDAY_2026_09_14, history: true }));
  });
  afterAll(async () => {
    await sb.close();
  });

  async function get<T>(schema: { parse: (x: unknown) => T }, path: string, who: Caller = a): Promise<T> {
    const r = await who('GET', path);
    expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200);
    return schema.parse(r.body);
  }

  it('lists invoices of the last 365 days, not archived by default, newest first, VAT 22% on the net', async () => {
    const l = await get(InvoiceList, '/invoices?per_page=200');
    expect(l.data.length).toBeGreaterThanOrEqual(6);
    for (const i of l.data) {
      expect(i.archived).toBe(false);
      expect(i.invoiceDate >= '2025-09-14').toBe(true);
      expect(i.vatRate).toBe(22);
      expect(cents(i.subtotal) + cents(i.vatAmount)).toBe(cents(i.total));
      expect(cents(i.vatAmount)).toBe(Math.round(cents(i.subtotal) * 0.22));
      expect([0, i.total]).toContain(i.paid);
      expect(i.currency).toBe('EUR');
    }
    const dates = l.data.map((i) => i.invoiceDate);
    expect(dates).toEqual([...dates].sort().reverse());
    // The pending top-up proforma issued at start, unpaid, due in 7 days.
    expect(l.data[0]).toMatchObject({ proforma: true, kind: 'credit_top_up', invoiceDate: '2026-09-14', dueDate: '2026-09-21', paid: 0, subtotal: 250 });
    expect(l.data[0]!.number).toMatch(/^PF 2026\/\d{6}$/);
    // The monthly fee of the business plan on the 1st, paid.
    const fees = l.data.filter((i) => i.kind === 'subscription');
    expect(fees.map((i) => i.invoiceDate)).toContain('2026-09-01');
    for (const f of fees) expect(f).toMatchObject({ subtotal: 39, paid: f.total, proforma: false });
    // Numbers follow dates.
    const real = l.data.filter((i) => !i.proforma);
    for (const i of real) expect(i.number).toMatch(/^FT \d{4}\/\d{6}$/);
    const byDate = [...real].sort((x, y) => (x.invoiceDate < y.invoiceDate ? -1 : x.invoiceDate > y.invoiceDate ? 1 : 0));
    expect(byDate.map((i) => i.number)).toEqual([...byDate.map((i) => i.number)].sort());
  });

  it('filters invoices: proforma, archived, period; paginates', async () => {
    const all = await get(InvoiceList, '/invoices?per_page=200');
    const pro = await get(InvoiceList, '/invoices?proforma=true');
    expect(pro.data.map((i) => i.id)).toEqual(all.data.filter((i) => i.proforma).map((i) => i.id));
    const notPro = await get(InvoiceList, '/invoices?proforma=false&per_page=200');
    expect(notPro.meta.total).toBe(all.meta.total - pro.meta.total);
    const archived = await get(InvoiceList, '/invoices?archived=true');
    expect(archived.meta.total).toBeGreaterThan(0);
    for (const i of archived.data) {
      expect(i.archived).toBe(true);
      expect(i.invoiceDate < '2026-05-17').toBe(true); // older than 120 days
    }
    const sept = await get(InvoiceList, '/invoices?from=2026-09-01&to=2026-09-30');
    expect(sept.data.length).toBeGreaterThan(0);
    for (const i of sept.data) expect(i.invoiceDate.startsWith('2026-09')).toBe(true);
    const p1 = await get(InvoiceList, '/invoices?per_page=2');
    expect(p1.meta).toMatchObject({ per_page: 2, total: all.meta.total, current_page: 1, from: 1, to: 2 });
    expect(new URL(p1.links.next!).searchParams.get('page')).toBe('2');
  });

  it.each([
    ['/invoices?from=2026-13-01', 'from'],
    ['/invoices?from=2026-09-10&to=2026-09-01', 'to'],
    ['/invoices?proforma=maybe', 'proforma'],
    ['/invoices?archived=2', 'archived'],
    ['/invoices?per_page=0', 'per_page'],
    ['/credit/movements?type=refund', 'type'],
    ['/credit/movements?to=yesterday', 'to'],
    ['/cod-lists?status=open', 'status'],
    ['/cod-lists?page=0', 'page'],
    ['/returns?from=2026-02-30', 'from'],
  ])('answers 422 for %s', async (path, key) => {
    const r = await a<ErrorBody>('GET', path);
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('validation_failed');
    expect(r.body.error.details).toHaveProperty([key]);
  });

  it('shows an invoice with items adding up to the subtotal', async () => {
    const l = await get(InvoiceList, '/invoices?per_page=200&from=2026-01-01');
    for (const i of l.data) {
      const d = await get(InvoiceDetail, `/invoices/${i.id}`);
      expect(d).toMatchObject(i);
      expect(sum(d.items.map((x) => x.total))).toBe(d.subtotal);
      for (const x of d.items) expect(cents(x.total)).toBe(Math.round(cents(x.unitPrice) * x.quantity));
    }
  });

  it('answers the invoice PDF, 503 while it is being generated or generation is down', async () => {
    const l = await get(InvoiceList, '/invoices?per_page=200');
    const fee = l.data.find((i) => i.kind === 'subscription')!;
    const r = await get(InvoicePdf, `/invoices/${fee.id}/pdf`);
    expect(r).toMatchObject({ id: fee.id, number: fee.number, total: fee.total });
    const pdf = Buffer.from(r.pdf, 'base64');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const doc = await PDFDocument.load(pdf);
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getTitle()).toBe(`Fattura ${fee.number}`);

    // The proforma was issued at start: its PDF is ready 15 simulated minutes later.
    const pro = l.data.find((i) => i.proforma)!;
    const busy = await a<ErrorBody>('GET', `/invoices/${pro.id}/pdf`);
    expect(busy.status).toBe(503);
    expect(busy.body.error.code).toBe('http_error');
    expect(busy.headers.get('retry-after')).toBe('900');
    sb.clock.advance(15 * 60_000);
    const ready = await get(InvoicePdf, `/invoices/${pro.id}/pdf`);
    expect((await PDFDocument.load(Buffer.from(ready.pdf, 'base64'))).getTitle()).toBe(`Proforma ${pro.number}`);

    sb.state.finance.pdfUnavailable = true;
    try {
      const down = await a<ErrorBody>('GET', `/invoices/${fee.id}/pdf`);
      expect(down.status).toBe(503);
      expect(Number(down.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      sb.state.finance.pdfUnavailable = false;
    }
    expect((await a('GET', `/invoices/${fee.id}/pdf`)).status).toBe(200);
  });

  it('lists credit movements newest first; amounts signed, each balance the one before plus the amount, the last one the credit', async () => {
    const recent = await get(MovementList, '/credit/movements?per_page=200');
    expect(recent.data.length).toBeGreaterThan(0);
    for (const m of recent.data) expect(m.createdAt >= '2026-06-16').toBe(true); // default: last 90 days
    const all = await get(MovementList, '/credit/movements?from=2026-01-01&per_page=200');
    const times = all.data.map((m) => Date.parse(m.createdAt));
    expect(times).toEqual([...times].sort((x, y) => y - x));
    const chrono = [...all.data].reverse();
    let balance = 0;
    for (const m of chrono) {
      expect(m.type).toBe(m.amount < 0 ? 'debit' : 'credit');
      balance = Math.round((balance + m.amount) * 100) / 100;
      expect(m.balance).toBe(balance);
    }
    const credit = CreditBalance.parse((await a('GET', '/credit')).body);
    expect(all.data[0]!.balance).toBe(credit.balance);

    // Top-ups carry their invoice; charges their shipment.
    const topUps = all.data.filter((m) => m.type === 'credit');
    expect(topUps.length).toBeGreaterThanOrEqual(2);
    for (const t of topUps) {
      const inv = await get(InvoiceDetail, `/invoices/${t.invoiceId}`);
      expect(inv).toMatchObject({ kind: 'credit_top_up', subtotal: t.amount, paid: inv.total });
    }
    const charges = all.data.filter((m) => m.trackingNumber !== null);
    expect(charges.length).toBeGreaterThan(10);
    for (const c of charges.slice(0, 5)) expect((await a('GET', `/shipments/${c.trackingNumber}`)).status).toBe(200);
    expect((await get(MovementList, '/credit/movements?from=2026-01-01&type=credit&per_page=200')).data.map((m) => m.id)).toEqual(topUps.map((m) => m.id));
    for (const m of (await get(MovementList, '/credit/movements?from=2026-01-01&type=debit&per_page=200')).data) expect(m.amount).toBeLessThan(0);
  });

  it('lists paid COD lists whose shipments show cod.status 2 (settled)', async () => {
    const l = await get(CodLists, '/cod-lists?per_page=200');
    expect(l.data.length).toBeGreaterThanOrEqual(5);
    expect((await get(CodLists, '/cod-lists?status=processing')).meta.total).toBe(0);
    expect((await get(CodLists, '/cod-lists?status=paid&per_page=200')).meta.total).toBe(l.meta.total);
    const listed = new Set<string>();
    for (const item of l.data) {
      const d = await get(CodListDetail, `/cod-lists/${item.id}`);
      expect(d.status).toBe('paid');
      expect(d.shipmentsCount).toBe(d.shipments.length);
      expect(d.total).toBe(sum(d.shipments.map((s) => s.codAmount)));
      expect(d.totalPaid).toBe(d.total);
      const created = d.createdAt.slice(0, 10);
      expect(new Date(`${d.paymentDate!}T12:00:00Z`).getTime() - new Date(`${created}T12:00:00Z`).getTime()).toBe(7 * 86_400_000);
      expect(new Date(`${created}T12:00:00Z`).getUTCDay()).toBe(1); // made on Mondays
      for (const s of d.shipments) {
        listed.add(s.trackingNumber);
        expect(s.codPaid).toBe(s.codAmount);
        expect(s.deliveredAt! < d.createdAt).toBe(true);
        const sh = await a<{ cod: { amount: number; status: number }; status: { key: string } }>('GET', `/shipments/${s.trackingNumber}`);
        expect(sh.body.status.key).toBe('delivered');
        expect(sh.body.cod).toMatchObject({ amount: s.codAmount, status: 2 });
      }
    }
    // The refused COD shipment was never collected: waiting, in no list.
    const refused = sb.state.shipments.find((s) => s.reference === 'BV-10455')!;
    expect(listed.has(refused.trackingNumber)).toBe(false);
    expect((await a<{ cod: { status: number } }>('GET', `/shipments/${refused.trackingNumber}`)).body.cod.status).toBe(0);
  });

  it('lists return lists with their cost, invoiced, each return charged on the credit', async () => {
    const l = await get(ReturnLists, '/returns');
    expect(l.data.length).toBeGreaterThanOrEqual(1);
    const movements = (await get(MovementList, '/credit/movements?from=2026-01-01&per_page=200')).data;
    let returned = 0;
    for (const item of l.data) {
      const d = await get(ReturnListDetail, `/returns/${item.id}`);
      expect(d.shipmentsCount).toBe(d.shipments.length);
      expect(d.totalCost).toBe(sum(d.shipments.map((s) => s.cost)));
      expect(d.invoiceId).not.toBeNull();
      const inv = await get(InvoiceDetail, `/invoices/${d.invoiceId}`);
      expect(inv).toMatchObject({ kind: 'returns', returnListId: d.id, subtotal: d.totalCost });
      for (const s of d.shipments) {
        returned++;
        expect((await a<{ status: { code: number } }>('GET', `/shipments/${s.trackingNumber}`)).body.status.code).toBe(7);
        expect(movements.find((m) => m.trackingNumber === s.trackingNumber && m.description.startsWith('Addebito reso'))?.amount).toBe(-s.cost);
        expect(s.returnedAt < d.createdAt).toBe(true);
      }
    }
    expect(returned).toBe(3);
  });

  it('keeps each client to its own records (404 for another client’s)', async () => {
    const inv = (await get(InvoiceList, '/invoices')).data[0]!;
    const cod = (await get(CodLists, '/cod-lists')).data[0]!;
    const ret = (await get(ReturnLists, '/returns')).data[0]!;
    for (const path of [`/invoices/${inv.id}`, `/invoices/${inv.id}/pdf`, `/cod-lists/${cod.id}`, `/returns/${ret.id}`]) {
      const r = await b<ErrorBody>('GET', path);
      expect(r.status, path).toBe(404);
      expect(r.body.error.code).toBe('not_found');
    }
    const theirs = await get(InvoiceList, '/invoices?per_page=200', b);
    const mine = new Set((await get(InvoiceList, '/invoices?per_page=200')).data.map((i) => i.id));
    expect(theirs.data.length).toBeGreaterThan(0);
    for (const i of theirs.data) expect(mine.has(i.id)).toBe(false);
    const theirMoves = await get(MovementList, '/credit/movements?from=2026-01-01&per_page=200', b);
    expect(theirMoves.data[0]!.balance).toBe(CreditBalance.parse((await b('GET', '/credit')).body).balance);
    for (const path of ['/invoices/999999', '/invoices/abc', '/cod-lists/999999', '/returns/0x1']) expect((await a('GET', path)).status).toBe(404);
  });
});

describe('conformance: financial records follow live shipments over simulated time', () => {
  let sb: Sandbox;
  let a: Caller;
  let refused = '';
  beforeAll(async () => {
    ({ sb } = await start({ clock: MONDAY_2026_09_14 }));
    a = renewingCaller(sb, 0);
  });
  afterAll(async () => {
    await sb.close();
  });

  const setClock = async (at: string) => {
    const r = await admin(sb, 'POST', '/clock/set', { at });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  };
  const shipment = async (ldv: string) => (await a<{ status: { code: number }; cod: { status: number } | null; dates: { deliveredAt: string | null } }>('GET', `/shipments/${ldv}`)).body;

  it('starts empty without history, then records charges with their shipment or pickup', async () => {
    for (const path of ['/invoices', '/cod-lists', '/returns', '/credit/movements']) {
      const r = await a<{ meta: { total: number } }>('GET', path);
      expect(r.status).toBe(200);
      expect(r.body.meta.total).toBe(0);
    }
    // A named scenario: without one the sandbox draws it from the (random) tracking number, and about
    // 1 in 20 would come back to the sender and join the return list the next test counts.
    const s = CreatedShipment.parse((await a('POST', '/shipments', { recipient: recipient(), packages: [pkg(2)], reference: 'LIVE-1', options: { notes: 'sandbox:delivered' } })).body);
    const p = Pickup.parse((await a('POST', '/pickups', { serviceType: 'BRT-EXP-NAZ', pickupDate: '2026-09-15', packages: [pkg(2)] })).body);
    const l = MovementList.parse((await a('GET', '/credit/movements')).body);
    expect(l.data.map((m) => [m.type, m.trackingNumber, m.pickupId])).toEqual([
      ['debit', null, p.pickupId],
      ['debit', s.trackingNumber, null],
    ]);
    expect(l.data[1]!.amount).toBe(-s.cost.total);
    expect(l.data[0]!.amount).toBe(-p.cost.total);
    expect(l.data[0]!.balance).toBe(CreditBalance.parse((await a('GET', '/credit')).body).balance);
    expect(l.data[0]!.createdAt).toBe('2026-09-14T10:00:00+02:00');
  });

  it('puts a delivered COD shipment in the next Monday list (processing, cod.status 1), paid 7 days later (cod.status 2)', async () => {
    const s = CreatedShipment.parse((await a('POST', '/shipments', { recipient: recipient(), packages: [pkg(1)], serviceType: 'BRT-EXP-NAZ', reference: 'COD-LIVE', options: { cod: { amount: 49.9 }, notes: 'sandbox:delivered' } })).body);
    expect((await shipment(s.trackingNumber)).cod?.status).toBe(0);
    // Refused by its recipient and sent back: followed by the next test.
    refused = CreatedShipment.parse((await a('POST', '/shipments', { recipient: recipient(), packages: [pkg(3)], serviceType: 'BRT-EXP-NAZ', reference: 'RET-LIVE', options: { notes: 'sandbox:refused' } })).body).trackingNumber;

    await setClock('2026-09-20T12:00:00+02:00'); // Sunday: delivered by now, no list yet
    const delivered = await shipment(s.trackingNumber);
    expect(delivered.status.code).toBe(5);
    expect(delivered.dates.deliveredAt! < '2026-09-21').toBe(true);
    expect(delivered.cod?.status).toBe(0);
    await setClock('2026-09-21T05:59:00+02:00');
    expect(CodLists.parse((await a('GET', '/cod-lists')).body).meta.total).toBe(0);

    await setClock('2026-09-21T06:01:00+02:00');
    const l = CodLists.parse((await a('GET', '/cod-lists?status=processing')).body);
    expect(l.data).toHaveLength(1);
    expect(l.data[0]).toMatchObject({ status: 'processing', shipmentsCount: 1, total: 49.9, totalPaid: 0, paymentDate: null, createdAt: '2026-09-21T06:00:00+02:00' });
    const d = CodListDetail.parse((await a('GET', `/cod-lists/${l.data[0]!.id}`)).body);
    expect(d.shipments).toEqual([{ trackingNumber: s.trackingNumber, reference: 'COD-LIVE', recipientName: 'Giulia Bianchi', deliveredAt: delivered.dates.deliveredAt, codAmount: 49.9, codPaid: 0 }]);
    expect((await shipment(s.trackingNumber)).cod?.status).toBe(1);

    await setClock('2026-09-28T06:01:00+02:00');
    const paid = CodListDetail.parse((await a('GET', `/cod-lists/${l.data[0]!.id}`)).body);
    expect(paid).toMatchObject({ status: 'paid', totalPaid: 49.9, paymentDate: '2026-09-28' });
    expect(paid.shipments[0]!.codPaid).toBe(49.9);
    expect((await shipment(s.trackingNumber)).cod?.status).toBe(2);
    expect(CodLists.parse((await a('GET', '/cod-lists?status=processing')).body).meta.total).toBe(0);
  });

  it('charges a return when it happens, lists it on the 1st, invoices it on the 10th; the monthly fee on the 1st', async () => {
    const s = { trackingNumber: refused };
    expect((await shipment(s.trackingNumber)).status.code).toBe(7);
    const moves = MovementList.parse((await a('GET', '/credit/movements')).body).data;
    const charge = moves.find((m) => m.trackingNumber === s.trackingNumber && m.description.startsWith('Addebito reso'));
    // Charged at the instant the carrier reported the return.
    const back = sb.state.lifecycle.history(sb.state.shipments.find((x) => x.trackingNumber === s.trackingNumber)!).find((e) => e.statusCode === 7)!;
    expect(Date.parse(charge!.createdAt)).toBe(Math.floor(back.at.getTime() / 1000) * 1000);
    expect(charge!.createdAt < '2026-09-20').toBe(true);
    const cost = -charge!.amount;
    expect(cost).toBeGreaterThan(0);
    await setClock('2026-10-01T05:59:00+02:00');
    expect(ReturnLists.parse((await a('GET', '/returns')).body).meta.total).toBe(0);

    await setClock('2026-10-01T06:01:00+02:00');
    const lists = ReturnLists.parse((await a('GET', '/returns')).body);
    expect(lists.data).toHaveLength(1);
    expect(lists.data[0]).toMatchObject({ shipmentsCount: 1, totalCost: cost, invoiceId: null, createdAt: '2026-10-01T06:00:00+02:00' });
    const detail = ReturnListDetail.parse((await a('GET', `/returns/${lists.data[0]!.id}`)).body);
    expect(detail.shipments.map((x) => [x.trackingNumber, x.reference, x.cost])).toEqual([[s.trackingNumber, 'RET-LIVE', cost]]);
    const fee = InvoiceList.parse((await a('GET', '/invoices?from=2026-10-01')).body).data;
    expect(fee.map((i) => [i.kind, i.invoiceDate, i.subtotal, i.paid === i.total])).toEqual([['subscription', '2026-10-01', 39, true]]);

    await setClock('2026-10-10T06:01:00+02:00');
    const invoiced = ReturnList.parse((await a('GET', `/returns/${lists.data[0]!.id}`)).body);
    expect(invoiced.invoiceId).not.toBeNull();
    const inv = InvoiceDetail.parse((await a('GET', `/invoices/${invoiced.invoiceId}`)).body);
    expect(inv).toMatchObject({ kind: 'returns', invoiceDate: '2026-10-10', dueDate: '2026-11-09', subtotal: cost, returnListId: invoiced.id, proforma: false });
    expect(inv.items).toEqual([{ description: `Reso al mittente ${s.trackingNumber} (rif. RET-LIVE)`, quantity: 1, unitPrice: cost, total: cost }]);
    // Issued at 06:00: the PDF is generated by 06:15.
    expect((await a('GET', `/invoices/${inv.id}/pdf`)).status).toBe(503);
    await setClock('2026-10-10T06:16:00+02:00');
    expect((await a('GET', `/invoices/${inv.id}/pdf`)).status).toBe(200);
  });
});
