/**
 * Financial reads (spec: Endpoints > "Invoices, credit, COD lists, returns";
 * Resources > Financial records), all paginated with the spec's envelope,
 * periods `from`/`to` as Europe/Rome dates (422 on a bad date), tenancy 404:
 * - `GET /invoices?from&to&proforma&archived` (by invoice date, default the
 *   last 365 days; `archived` default false) newest first; `GET /invoices/{id}`
 *   with `items[]`; `GET /invoices/{id}/pdf` the detail plus base64 `pdf`, or
 *   503 `http_error` with `Retry-After` while the PDF is being generated
 *   (the first 15 simulated minutes after issue) or generation is down
 *   (`state.finance.pdfUnavailable`);
 * - `GET /credit/movements?from&to&type=credit|debit` (default the last 90 days) newest first;
 * - `GET /cod-lists?from&to&status=processing|paid` (by list date, default
 *   the last 365 days) newest first; `GET /cod-lists/{id}` with `shipments[]`;
 * - `GET /returns?from&to` (default the last 365 days) newest first;
 *   `GET /returns/{id}` with the returned shipments.
 * The books are brought up to date before each request (finance.ts `sync`).
 */
import { CodListStatusFilter, MovementTypeFilter } from '../../../shared/platform/finance';
import { ApiError, fieldError, notFound } from '../errors';
import { inPeriod, paginate, pathId, queryBool, queryString, readPeriod, type ApiRouter, type Period } from '../http';
import type { Account, CreditMovement } from '../model';
import type { SandboxState } from '../state';
import { localIso } from '../time';
import { PDF_GENERATION_MS, type CodListRecord, type InvoiceRecord, type ReturnListRecord } from '../finance';
import { renderInvoicePdf } from '../invoice-pdf';

/** Default period of the invoice, COD-list and return-list lists, days. */
const DOCUMENTS_DEFAULT_DAYS = 365;
/** Default period of the credit movements list, days. */
const MOVEMENTS_DEFAULT_DAYS = 90;

const inDates = (date: string, p: Period) => date >= p.from && (p.to === undefined || date <= p.to);

/** Invoice as listed. */
function invoiceView(i: InvoiceRecord) {
  return {
    id: i.id,
    number: i.number,
    proforma: i.proforma,
    archived: i.archived,
    kind: i.kind,
    invoiceDate: i.invoiceDate,
    dueDate: i.dueDate,
    subtotal: i.subtotal,
    vatRate: i.vatRate,
    vatAmount: i.vatAmount,
    total: i.total,
    paid: i.paid,
    currency: i.currency,
  };
}

/** Invoice detail: the listed fields plus `items[]` and `returnListId`. */
function invoiceDetail(i: InvoiceRecord) {
  return { ...invoiceView(i), items: i.items.map((x) => ({ ...x })), returnListId: i.returnListId };
}

/** Credit movement on the wire (shared/platform/finance.ts `CreditMovement`). */
function movementView(state: SandboxState, m: CreditMovement) {
  const s = m.shipmentId === null ? undefined : state.shipments.find((x) => x.id === m.shipmentId);
  const p = m.pickupId === null ? undefined : state.pickups.find((x) => x.id === m.pickupId);
  return {
    id: m.id,
    type: m.type,
    amount: m.amount,
    balance: m.balance,
    currency: m.currency,
    description: m.description,
    trackingNumber: s?.trackingNumber ?? null,
    pickupId: p?.pickupId ?? null,
    invoiceId: state.finance.topUpInvoices.get(m.id) ?? null,
    createdAt: localIso(m.createdAt),
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** COD list as listed. */
function codListView(l: CodListRecord) {
  return {
    id: l.id,
    number: l.number,
    status: l.status,
    shipmentsCount: l.entries.length,
    total: round2(l.entries.reduce((t, e) => t + e.codAmount, 0)),
    totalPaid: round2(l.entries.reduce((t, e) => t + e.codPaid, 0)),
    currency: l.currency,
    paymentDate: l.paymentDate,
    createdAt: localIso(l.createdAt),
  };
}

/** COD list detail with `shipments[]`. */
function codListDetail(l: CodListRecord) {
  return {
    ...codListView(l),
    shipments: l.entries.map((e) => ({
      trackingNumber: e.trackingNumber,
      reference: e.reference,
      recipientName: e.recipientName,
      deliveredAt: e.deliveredAt ? localIso(e.deliveredAt) : null,
      codAmount: e.codAmount,
      codPaid: e.codPaid,
    })),
  };
}

/** Return list as listed. */
function returnListView(l: ReturnListRecord) {
  return {
    id: l.id,
    number: l.number,
    shipmentsCount: l.entries.length,
    totalCost: l.totalCost,
    currency: l.currency,
    invoiceId: l.invoiceId,
    createdAt: localIso(l.createdAt),
  };
}

/** Return list detail with the returned shipments. */
function returnListDetail(l: ReturnListRecord) {
  return {
    ...returnListView(l),
    shipments: l.entries.map((e) => ({
      trackingNumber: e.trackingNumber,
      returnTrackingNumber: e.returnTrackingNumber,
      reference: e.reference,
      recipientName: e.recipientName,
      returnedAt: localIso(e.returnedAt),
      cost: e.cost,
    })),
  };
}

function findInvoice(state: SandboxState, account: Account, raw: string | undefined): InvoiceRecord {
  const id = pathId(raw, `Invoice ${raw ?? ''}`);
  const inv = state.finance.invoices.find((i) => i.id === id && i.accountId === account.accountId);
  if (!inv) throw notFound(`Invoice ${id} not found`);
  return inv;
}

/** Registers the financial routes. */
export function registerFinanceRoutes(r: ApiRouter): void {
  r.get('/invoices', ({ state, account, query, now, req }) => {
    const period = readPeriod(query, now, DOCUMENTS_DEFAULT_DAYS);
    const proforma = queryBool(query, 'proforma');
    const archived = queryBool(query, 'archived') ?? false;
    const items = state.finance.invoices
      .filter((i) => i.accountId === account.accountId && inDates(i.invoiceDate, period))
      .filter((i) => (proforma === undefined || i.proforma === proforma) && i.archived === archived)
      .sort((a, b) => b.issuedAt.getTime() - a.issuedAt.getTime() || b.id - a.id)
      .map(invoiceView);
    return { body: paginate(req, query, items) };
  });

  r.get('/invoices/:id', ({ state, account, params }) => ({ body: invoiceDetail(findInvoice(state, account, params.id)) }));

  r.get('/invoices/:id/pdf', async ({ state, account, params, now }) => {
    const inv = findInvoice(state, account, params.id);
    const readyAt = inv.issuedAt.getTime() + PDF_GENERATION_MS;
    if (state.finance.pdfUnavailable || now.getTime() < readyAt) {
      const wait = state.finance.pdfUnavailable ? 60 : Math.max(1, Math.ceil((readyAt - now.getTime()) / 1000));
      throw new ApiError(
        503,
        'http_error',
        state.finance.pdfUnavailable
          ? 'Invoice PDF generation is temporarily unavailable; retry later'
          : `The PDF of invoice ${inv.number} is being generated; retry in ${wait} s`,
        undefined,
        { 'Retry-After': String(wait) },
      );
    }
    const pdf = await renderInvoicePdf(inv, account);
    return { body: { ...invoiceDetail(inv), pdf: Buffer.from(pdf).toString('base64') } };
  });

  r.get('/credit/movements', ({ state, account, query, now, req }) => {
    const period = readPeriod(query, now, MOVEMENTS_DEFAULT_DAYS);
    const rawType = queryString(query, 'type');
    let type: 'credit' | 'debit' | undefined;
    if (rawType !== undefined && rawType !== '') {
      const t = MovementTypeFilter.safeParse(rawType);
      if (!t.success) throw fieldError('type', 'type must be credit or debit');
      type = t.data;
    }
    const items = account.movements
      .filter((m) => inPeriod(m.createdAt, period) && (type === undefined || m.type === type))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id)
      .map((m) => movementView(state, m));
    return { body: paginate(req, query, items) };
  });

  r.get('/cod-lists', ({ state, account, query, now, req }) => {
    const period = readPeriod(query, now, DOCUMENTS_DEFAULT_DAYS);
    const rawStatus = queryString(query, 'status');
    let status: 'processing' | 'paid' | undefined;
    if (rawStatus !== undefined && rawStatus !== '') {
      const s = CodListStatusFilter.safeParse(rawStatus);
      if (!s.success) throw fieldError('status', 'status must be processing or paid');
      status = s.data;
    }
    const items = state.finance.codLists
      .filter((l) => l.accountId === account.accountId && inPeriod(l.createdAt, period) && (status === undefined || l.status === status))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id)
      .map(codListView);
    return { body: paginate(req, query, items) };
  });

  r.get('/cod-lists/:id', ({ state, account, params }) => {
    const id = pathId(params.id, `COD list ${params.id ?? ''}`);
    const l = state.finance.codLists.find((x) => x.id === id && x.accountId === account.accountId);
    if (!l) throw notFound(`COD list ${id} not found`);
    return { body: codListDetail(l) };
  });

  r.get('/returns', ({ state, account, query, now, req }) => {
    const period = readPeriod(query, now, DOCUMENTS_DEFAULT_DAYS);
    const items = state.finance.returnLists
      .filter((l) => l.accountId === account.accountId && inPeriod(l.createdAt, period))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id)
      .map(returnListView);
    return { body: paginate(req, query, items) };
  });

  r.get('/returns/:id', ({ state, account, params }) => {
    const id = pathId(params.id, `Return list ${params.id ?? ''}`);
    const l = state.finance.returnLists.find((x) => x.id === id && x.accountId === account.accountId);
    if (!l) throw notFound(`Return list ${id} not found`);
    return { body: returnListDetail(l) };
  });
}
