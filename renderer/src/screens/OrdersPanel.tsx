/**
 * Orders panel (on the Scan screen): the open orders, the Shopify CSV import
 * with its report (line and column of every problem), and the manual order
 * form validated with the same `ManualOrderInput` schema the station uses.
 */
import { useEffect, useId, useState } from 'react';
import { ManualOrderInput, normalizePostalCode, recipientProblems, type StationOrder } from '../../../shared/domain/order';
import { issuesToDetails, type FieldErrors } from '../../../shared/platform';
import { ErrorList, TextField, keepFocusOnMouseDown } from '../components/Field';
import { dateTime, money, parseDecimal } from '../lib/format';
import { unplacedErrors } from '../lib/shipForm';
import { useApp } from '../stores/app';
import { useJob } from '../stores/job';
import { useOrders } from '../stores/orders';

/** Open orders, CSV import and manual order, side by side. */
export function OrdersPanel() {
  const load = useOrders((s) => s.load);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <div className="orders-grid">
      <OpenOrders />
      <div className="orders-side">
        <ImportCard />
        <ManualOrderCard />
      </div>
    </div>
  );
}

function OpenOrders() {
  const { orders, loading, filter, setFilter } = useOrders();
  const startOrder = useJob((s) => s.startOrder);
  const { go, flash } = useApp();
  const open = (o: StationOrder) => {
    startOrder(o);
    flash('ok', `Order ${o.orderNumber} — ${o.recipient.name}`, `${o.recipient.postalCode} ${o.recipient.city} (${o.recipient.countryCode}). Weigh the parcel and press Enter to quote.`);
    go('quote', { keepBanner: true });
  };
  return (
    <section className="card" aria-labelledby="open-orders-title">
      <header className="card-head">
        <h2 id="open-orders-title">Open orders ({orders.length})</h2>
        <TextField id="orders-filter" label="Search orders" value={filter} onValue={setFilter} placeholder="number, name, city" className="field-inline" />
      </header>
      {orders.length === 0 ? (
        <p className="empty">{loading ? 'Loading…' : 'No open orders. Import a Shopify CSV or enter an order by hand.'}</p>
      ) : (
        <div className="table-wrap">
          <table className="table" aria-label="Open orders">
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Placed</th>
                <th scope="col">Recipient</th>
                <th scope="col">Destination</th>
                <th scope="col">Items</th>
                <th scope="col">Total</th>
                <th scope="col">
                  <span className="sr-only">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {orders.map((o) => (
                <tr key={o.id}>
                  <th scope="row">{o.orderNumber}</th>
                  <td>{dateTime(o.createdAt)}</td>
                  <td>{o.recipient.name}</td>
                  <td>
                    {o.recipient.postalCode} {o.recipient.city} ({o.recipient.countryCode})
                  </td>
                  <td>{o.items.reduce((a, i) => a + i.quantity, 0)}</td>
                  <td>{o.total !== undefined ? money(o.total, o.currency) : '—'}</td>
                  <td>
                    <button type="button" className="btn btn-small" onClick={() => open(o)} aria-label={`Ship order ${o.orderNumber}`}>
                      Ship
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function ImportCard() {
  const { report, importing, importCsv } = useOrders();
  const inputId = useId();
  return (
    <section className="card" aria-labelledby="import-title">
      <h2 id="import-title">Import Shopify orders</h2>
      <div className="field">
        <label htmlFor={inputId}>Shopify “Export orders” CSV file</label>
        <input
          id={inputId}
          type="file"
          accept=".csv,text/csv"
          disabled={importing}
          onChange={(e) => {
            const f = e.target.files?.[0];
            e.target.value = '';
            if (f) void importCsv(f);
          }}
        />
      </div>
      {importing ? <p aria-live="polite">Importing…</p> : null}
      {report ? (
        <div className="import-report" data-testid="import-report">
          <h3>Report for {report.fileName}</h3>
          <dl className="counts">
            <div>
              <dt>New</dt>
              <dd data-testid="import-imported">{report.imported}</dd>
            </div>
            <div>
              <dt>Updated</dt>
              <dd>{report.updated}</dd>
            </div>
            <div>
              <dt>Unchanged</dt>
              <dd>{report.unchanged}</dd>
            </div>
            <div>
              <dt>Duplicates skipped</dt>
              <dd>{report.skippedDuplicates}</dd>
            </div>
            <div>
              <dt>Not shippable</dt>
              <dd>{report.skippedNotShippable}</dd>
            </div>
            <div className={report.errors.length ? 'count-bad' : ''}>
              <dt>Problems</dt>
              <dd data-testid="import-errors">{report.errors.length}</dd>
            </div>
          </dl>
          {report.errors.length ? (
            <table className="table table-compact" aria-label="Import problems">
              <thead>
                <tr>
                  <th scope="col">Line</th>
                  <th scope="col">Column</th>
                  <th scope="col">Problem</th>
                </tr>
              </thead>
              <tbody>
                {report.errors.map((e, i) => (
                  <tr key={i}>
                    <td>{e.line}</td>
                    <td>{e.column}</td>
                    <td>{e.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

interface ManualDraft {
  orderNumber: string;
  name: string;
  company: string;
  street: string;
  street2: string;
  postalCode: string;
  city: string;
  province: string;
  countryCode: string;
  phone: string;
  email: string;
  itemName: string;
  itemSku: string;
  itemQty: string;
  itemPrice: string;
  notes: string;
}

const EMPTY_MANUAL: ManualDraft = {
  orderNumber: '',
  name: '',
  company: '',
  street: '',
  street2: '',
  postalCode: '',
  city: '',
  province: '',
  countryCode: 'IT',
  phone: '',
  email: '',
  itemName: '',
  itemSku: '',
  itemQty: '1',
  itemPrice: '',
  notes: '',
};

/** Form field -> ManualOrderInput issue path. */
const MANUAL_PATHS: Record<keyof ManualDraft, string> = {
  orderNumber: 'orderNumber',
  name: 'recipient.name',
  company: 'recipient.company',
  street: 'recipient.street',
  street2: 'recipient.street2',
  postalCode: 'recipient.postalCode',
  city: 'recipient.city',
  province: 'recipient.province',
  countryCode: 'recipient.countryCode',
  phone: 'recipient.phone',
  email: 'recipient.email',
  itemName: 'items.0.name',
  itemSku: 'items.0.sku',
  itemQty: 'items.0.quantity',
  itemPrice: 'items.0.unitPrice',
  notes: 'notes',
};

/** The form as the `orders.create` input; one item line when its name is filled. */
function manualInput(d: ManualDraft): ManualOrderInput {
  const hasItem = d.itemName.trim() !== '' || d.itemSku.trim() !== '';
  const price = parseDecimal(d.itemPrice);
  return {
    orderNumber: d.orderNumber,
    email: d.email,
    recipient: { name: d.name, company: d.company, street: d.street, street2: d.street2, postalCode: d.postalCode, city: d.city, province: d.province, countryCode: d.countryCode, phone: d.phone, email: d.email },
    items: hasItem ? [{ name: d.itemName, sku: d.itemSku, quantity: parseDecimal(d.itemQty) as number, unitPrice: price }] : [],
    notes: d.notes,
  };
}

/**
 * Errors of the manual form: the ManualOrderInput schema, plus the Italian
 * rules of `recipientProblems` at once (the schema checks those only once the
 * required fields are there, and the packer should see every problem in one go).
 */
function manualErrors(d: ManualDraft): FieldErrors {
  const r = ManualOrderInput.safeParse(manualInput(d));
  if (r.success) return {};
  const out = issuesToDetails(r.error.issues);
  const countryCode = d.countryCode.trim().toUpperCase();
  const blank = (v: string) => (v.trim() === '' ? undefined : v.trim());
  const province = blank(d.province)?.toUpperCase();
  const problems = recipientProblems({
    name: d.name.trim(),
    street: d.street.trim(),
    city: d.city.trim(),
    postalCode: normalizePostalCode(d.postalCode, countryCode),
    countryCode,
    ...(province !== undefined ? { province } : {}),
  });
  for (const k of ['postalCode', 'province'] as const) {
    const msg = problems[k];
    if (msg && !out[`recipient.${k}`]) out[`recipient.${k}`] = [msg];
  }
  return out;
}

function ManualOrderCard() {
  const [d, setD] = useState<ManualDraft>(EMPTY_MANUAL);
  const [touched, setTouched] = useState<Record<string, true>>({});
  const [submitted, setSubmitted] = useState(false);
  const { create, creating, createErrors } = useOrders();
  const errors: FieldErrors = { ...manualErrors(d), ...createErrors };
  const show = (k: keyof ManualDraft) => (submitted || touched[k] ? errors[MANUAL_PATHS[k]]?.[0] : undefined);
  const f = (k: keyof ManualDraft, label: string, extra: Partial<Parameters<typeof TextField>[0]> = {}) => (
    <TextField id={`mo-${k}`} label={label} value={d[k]} onValue={(v) => setD({ ...d, [k]: v })} onBlur={() => setTouched({ ...touched, [k]: true })} error={show(k)} {...extra} />
  );
  const known = new Set(Object.values(MANUAL_PATHS));
  return (
    <details className="card card-details">
      <summary>
        <h2>New order by hand</h2>
      </summary>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setSubmitted(true);
          if (Object.keys(manualErrors(d)).length) {
            useApp.getState().flash('error', 'Order not created: fix the marked fields');
            return;
          }
          void create(manualInput(d)).then((o) => {
            if (o) {
              setD(EMPTY_MANUAL);
              setTouched({});
              setSubmitted(false);
            }
          });
        }}
      >
        <ErrorList title="Also check" errors={submitted ? unplacedErrors(errors, known) : []} />
        <div className="grid-2">
          {f('orderNumber', 'Order number (blank: assigned)')}
          {f('name', 'Recipient name')}
          {f('company', 'Company')}
          {f('phone', 'Phone', { type: 'tel' })}
          {f('street', 'Street and number', { wide: true })}
          {f('street2', 'Street 2', { wide: true })}
          {f('postalCode', 'Postal code')}
          {f('city', 'City')}
          {f('province', 'Province (e.g. MI)')}
          {f('countryCode', 'Country (2 letters)')}
          {f('email', 'E-mail', { type: 'email', wide: true })}
          {f('itemName', 'Item')}
          {f('itemSku', 'SKU')}
          {f('itemQty', 'Quantity', { inputMode: 'numeric' })}
          {f('itemPrice', 'Unit price (EUR)', { inputMode: 'decimal' })}
          {f('notes', 'Notes', { wide: true })}
        </div>
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={creating} onMouseDown={keepFocusOnMouseDown}>
            Create order
          </button>
        </div>
      </form>
    </details>
  );
}
