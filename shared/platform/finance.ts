/**
 * Financial records of the Client Shipping API 2026-09, all read only
 * (spec: Resources > Financial records; Endpoints > "Invoices, credit, COD
 * lists, returns"): invoices, credit movements, cash-on-delivery lists
 * (remittances) and return lists. Amounts are numbers in `currency` (EUR for
 * the demo platform), dates `YYYY-MM-DD`, date-times ISO 8601 with offset.
 *
 * Where the spec says "not shown" (the other fields of a credit movement, the
 * count of shipments of a COD or return list, the return total cost) the
 * names below are the platform's choice, documented in
 * electron/sandbox/README.md ("Orders, customs and finance"). Response
 * schemas accept unknown fields (spec: Versioning 2).
 */
import { z } from 'zod';
import { IsoDate, IsoDateTime } from './common';

/** What an invoice bills: a prepaid credit top-up, the monthly platform fee, or the costs of a return list. */
export const InvoiceKind = z.enum(['credit_top_up', 'subscription', 'returns']);
export type InvoiceKind = z.infer<typeof InvoiceKind>;

/** Invoice line: net `unitPrice` x `quantity` = net `total`. */
const InvoiceItem = z.object({
  description: z.string(),
  quantity: z.number(),
  unitPrice: z.number(),
  total: z.number(),
});
type InvoiceItem = z.infer<typeof InvoiceItem>;

/**
 * Invoice as listed (spec fields `id`, `number`, `proforma`, `invoiceDate`,
 * `dueDate`, `subtotal`, `total`, `paid`, `currency`), plus `archived`,
 * `kind`, and VAT: `vatRate` (percent) and `vatAmount`, so that
 * `subtotal + vatAmount = total`. `paid` is what was paid of `total`
 * (0 on an unpaid proforma).
 */
export const Invoice = z.object({
  id: z.number().int(),
  number: z.string(),
  proforma: z.boolean(),
  archived: z.boolean(),
  kind: InvoiceKind,
  invoiceDate: IsoDate,
  dueDate: IsoDate,
  subtotal: z.number(),
  vatRate: z.number(),
  vatAmount: z.number(),
  total: z.number(),
  paid: z.number(),
  currency: z.string(),
});
export type Invoice = z.infer<typeof Invoice>;

/** GET /invoices/{id}: the invoice with its `items[]` (and the return list it bills, if any). */
export const InvoiceDetail = Invoice.extend({
  items: z.array(InvoiceItem),
  returnListId: z.number().int().nullable(),
});
export type InvoiceDetail = z.infer<typeof InvoiceDetail>;

/** GET /invoices/{id}/pdf: the invoice detail with the base64 PDF in `pdf`. */
export const InvoicePdf = InvoiceDetail.extend({ pdf: z.string() });
export type InvoicePdf = z.infer<typeof InvoicePdf>;

/**
 * Credit movement (spec: `amount` negative for debits, `balance` after the
 * movement; the rest "not shown"): `id`, `type` (`credit` top-ups and
 * refunds, `debit` charges), `currency`, `description`, the shipment's
 * `trackingNumber`, the carrier `pickupId` of a pickup, the `invoiceId` of a
 * top-up, each null when not related, and `createdAt`.
 */
export const CreditMovement = z.object({
  id: z.number().int(),
  type: z.enum(['credit', 'debit']),
  amount: z.number(),
  balance: z.number(),
  currency: z.string(),
  description: z.string(),
  trackingNumber: z.string().nullable(),
  pickupId: z.string().nullable(),
  invoiceId: z.number().int().nullable(),
  createdAt: IsoDateTime,
});
export type CreditMovement = z.infer<typeof CreditMovement>;

/** COD list status (spec: COD list status filter). */
const CodListStatus = z.enum(['processing', 'paid']);
type CodListStatus = z.infer<typeof CodListStatus>;

/**
 * COD list (remittance) as listed: `shipmentsCount` (the spec's "number of
 * shipments"), `total` (sum of COD amounts), `totalPaid`, `paymentDate`
 * (null until paid), plus `id`, `number`, `status`, `currency`, `createdAt`.
 */
export const CodList = z.object({
  id: z.number().int(),
  number: z.string(),
  status: CodListStatus,
  shipmentsCount: z.number().int(),
  total: z.number(),
  totalPaid: z.number(),
  currency: z.string(),
  paymentDate: IsoDate.nullable(),
  createdAt: IsoDateTime,
});
export type CodList = z.infer<typeof CodList>;

/** Shipment of a COD list: `codAmount` collected by the carrier, `codPaid` remitted to the client (0 until paid). */
const CodListShipment = z.object({
  trackingNumber: z.string(),
  reference: z.string().nullable(),
  recipientName: z.string(),
  deliveredAt: IsoDateTime.nullable(),
  codAmount: z.number(),
  codPaid: z.number(),
});
type CodListShipment = z.infer<typeof CodListShipment>;

/** GET /cod-lists/{id}: the list with its `shipments[]`. */
export const CodListDetail = CodList.extend({ shipments: z.array(CodListShipment) });
export type CodListDetail = z.infer<typeof CodListDetail>;

/**
 * Return list as listed: `shipmentsCount` (number of returned shipments),
 * `totalCost` (what the returns cost the client, net of VAT), `invoiceId`
 * once invoiced (else null), plus `id`, `number`, `currency`, `createdAt`.
 */
export const ReturnList = z.object({
  id: z.number().int(),
  number: z.string(),
  shipmentsCount: z.number().int(),
  totalCost: z.number(),
  currency: z.string(),
  invoiceId: z.number().int().nullable(),
  createdAt: IsoDateTime,
});
export type ReturnList = z.infer<typeof ReturnList>;

/** A returned shipment of a return list: its LDV, the return LDV (if any), and the return `cost`. */
const ReturnListShipment = z.object({
  trackingNumber: z.string(),
  returnTrackingNumber: z.string().nullable(),
  reference: z.string().nullable(),
  recipientName: z.string(),
  returnedAt: IsoDateTime,
  cost: z.number(),
});
type ReturnListShipment = z.infer<typeof ReturnListShipment>;

/** GET /returns/{id}: the list with the returned shipments. */
export const ReturnListDetail = ReturnList.extend({ shipments: z.array(ReturnListShipment) });
export type ReturnListDetail = z.infer<typeof ReturnListDetail>;

/** `type` filter of GET /credit/movements. */
export const MovementTypeFilter = z.enum(['credit', 'debit'], { error: 'type must be credit or debit' });
/** `status` filter of GET /cod-lists. */
export const CodListStatusFilter = z.enum(['processing', 'paid'], { error: 'status must be processing or paid' });
