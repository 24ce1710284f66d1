/**
 * Orders panel (on the Scan screen): the order list, virtualised
 * (@tanstack/react-virtual: only the visible rows are in the DOM, pages of
 * 100 are fetched from the core as they scroll into view), searched by
 * number, name, city or SKU and filtered by shop, country, shipping method,
 * unpaid and needs-fix in SQLite; the Shopify CSV import for a shop with its
 * report (order, spreadsheet row and column of every problem, what was left
 * as it was and why); the manual order form; and the dialogs that open an
 * order for shipping (complete a missing postal code, confirm an unpaid
 * order, choose between shops sharing a number).
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { ManualOrderInput, ORDER_LIMITS, linesToShip, normalizePostalCode, recipientProblems, type OrderView, type StationOrder } from '../../../shared/domain/order';
import { issuesToDetails, type FieldErrors } from '../../../shared/platform';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorList, SelectField, TextField, keepFocusOnMouseDown } from '../components/Field';
import { useModalDialog } from '../components/useModalDialog';
import { dateTime, money, parseDecimal } from '../lib/format';
import { locale, t } from '../lib/i18n';
import { unplacedErrors } from '../lib/shipForm';
import { useApp } from '../stores/app';
import { useOrders } from '../stores/orders';

/** Order list, CSV import and manual order, side by side; the shipping dialogs. */
export function OrdersPanel() {
  const { load, loadFacets, loadSettings } = useOrders();
  useEffect(() => {
    void load();
    void loadFacets();
    void loadSettings();
  }, [load, loadFacets, loadSettings]);
  return (
    <div className="orders-grid orders-grid-wide">
      <OrderList />
      <div className="orders-side">
        <ImportCard />
        <ManualOrderCard />
      </div>
      <FixDialog />
      <UnpaidDialog />
      <ChoiceDialog />
    </div>
  );
}

/** The order views of the Show menu; each one's name is the text `orders.view.<view>`. */
const VIEWS: OrderView[] = ['to_ship', 'pickup', 'shipped', 'cancelled', 'all'];
const ROW_HEIGHT = 44;
/** Height of the scrolling list, px: 14 rows, then it scrolls. */
const LIST_HEIGHT = 14 * ROW_HEIGHT;

function OrderList() {
  const { query, total, rows, loading, facets, selected, submitting, setQuery, ensureRange, openForShipping, toggleSelected, submitSelected } = useOrders();
  const [text, setText] = useState(query.q ?? '');
  const scrollRef = useRef<HTMLDivElement>(null);
  // Search as the packer types, once typing pauses (one SQLite query per pause, not per key).
  useEffect(() => {
    const timer = setTimeout(() => {
      if ((query.q ?? '') !== text.trim()) setQuery({ q: text.trim() === '' ? undefined : text.trim() });
    }, 150);
    return () => clearTimeout(timer);
  }, [text, query.q, setQuery]);
  // Nothing here is memoised by hand, and the project does not run the React Compiler: the
  // virtualizer's own re-render on scroll is what keeps the rows current.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  useEffect(() => {
    if (total > 0) void ensureRange(first, last + 1);
  }, [first, last, total, rows, ensureRange]);
  useEffect(() => {
    scrollRef.current?.scrollTo({ top: 0 });
  }, [query]);
  const opt = (v: string | undefined) => (v === '' ? undefined : v);
  return (
    <section className="card order-list" aria-labelledby="orders-title">
      <header className="card-head">
        <h2 id="orders-title">
          {t('orders.title')} <span className="count" data-testid="orders-total">{total.toLocaleString(locale())}</span>
        </h2>
        <button type="button" className="btn btn-small" disabled={selected.size === 0 || submitting} onClick={() => void submitSelected()}>
          {selected.size ? t('orders.sendSelected', { count: selected.size }) : t('orders.send')}
        </button>
      </header>
      <div className="order-filters">
        <TextField id="orders-filter" label={t('orders.search')} value={text} onValue={setText} placeholder={t('orders.searchHint')} className="field-inline field-search" />
        <SelectField id="orders-view" label={t('orders.show')} value={query.view} onValue={(v) => setQuery({ view: v as OrderView })}>
          {VIEWS.map((v) => (
            <option key={v} value={v}>
              {t(`orders.view.${v}`)}
            </option>
          ))}
        </SelectField>
        <SelectField id="orders-shop" label={t('orders.shop')} value={query.shop ?? ''} onValue={(v) => setQuery({ shop: opt(v) })}>
          <option value="">{t('orders.allShops')}</option>
          {facets.shops.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </SelectField>
        <SelectField id="orders-country" label={t('orders.country')} value={query.country ?? ''} onValue={(v) => setQuery({ country: opt(v) })}>
          <option value="">{t('orders.all')}</option>
          {facets.countries.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </SelectField>
        <SelectField id="orders-carrier" label={t('orders.method')} value={query.carrier ?? ''} onValue={(v) => setQuery({ carrier: opt(v) })}>
          <option value="">{t('orders.all')}</option>
          {facets.carriers.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </SelectField>
        <SelectField id="orders-sort" label={t('orders.sort')} value={query.sort} onValue={(v) => setQuery({ sort: v as typeof query.sort })}>
          <option value="newest">{t('orders.sortBy.newest')}</option>
          <option value="oldest">{t('orders.sortBy.oldest')}</option>
          <option value="number">{t('orders.sortBy.number')}</option>
          <option value="name">{t('orders.sortBy.name')}</option>
          <option value="country">{t('orders.sortBy.country')}</option>
        </SelectField>
        <label className="check">
          <input type="checkbox" checked={query.unpaid === true} onChange={(e) => setQuery({ unpaid: e.target.checked || undefined })} /> {t('orders.unpaid')}
        </label>
        <label className="check">
          <input type="checkbox" checked={query.needsFix === true} onChange={(e) => setQuery({ needsFix: e.target.checked || undefined })} /> {t('orders.needsFix')}
        </label>
      </div>
      {total === 0 ? (
        <p className="empty">{loading ? t('common.loading') : query.q || query.shop || query.country || query.carrier || query.unpaid || query.needsFix ? t('orders.noMatch') : t('orders.none')}</p>
      ) : (
        <div className="vtable" role="table" aria-label={query.view === 'to_ship' ? t('orders.openOrders') : t('orders.listOf', { view: t(`orders.view.${query.view}`) })} aria-rowcount={total + 1}>
          <div className="vrow vhead" role="row" aria-rowindex={1}>
            <span role="columnheader" className="c-sel">
              <span className="sr-only">{t('orders.col.select')}</span>
            </span>
            <span role="columnheader" className="c-num">{t('orders.col.order')}</span>
            <span role="columnheader" className="c-date">{t('orders.col.placed')}</span>
            <span role="columnheader" className="c-name">{t('orders.col.recipient')}</span>
            <span role="columnheader" className="c-dest">{t('orders.col.destination')}</span>
            <span role="columnheader" className="c-lines">{t('orders.col.lines')}</span>
            <span role="columnheader" className="c-total">{t('orders.col.total')}</span>
            <span role="columnheader" className="c-state">{t('orders.col.state')}</span>
            <span role="columnheader" className="c-act">
              <span className="sr-only">{t('orders.col.action')}</span>
            </span>
          </div>
          <div ref={scrollRef} className="vscroll" data-testid="orders-scroll" style={{ height: Math.min(total * ROW_HEIGHT + 2, LIST_HEIGHT) }}>
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {items.map((vi) => {
                const o = rows.get(vi.index);
                return (
                  <div key={vi.key} className="vrow" role="row" aria-rowindex={vi.index + 2} style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${vi.start}px)` }}>
                    {o ? <OrderRow o={o} selected={selected.has(o.id)} onToggle={() => toggleSelected(o.id)} onOpen={() => openForShipping(o)} /> : <span className="c-loading">{t('common.loading')}</span>}
                  </div>
                );
              })}
            </div>
          </div>
        </div>
      )}
    </section>
  );
}

function OrderRow({ o, selected, onToggle, onOpen }: { o: StationOrder; selected: boolean; onToggle(): void; onOpen(): void }) {
  const toShip = linesToShip(o).length;
  const sent = o.items.length - toShip;
  const open = o.status === 'open';
  return (
    <>
      <span role="cell" className="c-sel">
        <input type="checkbox" checked={selected} onChange={onToggle} aria-label={t('orders.selectLabel', { order: o.orderNumber, shop: o.shop })} disabled={!open} />
      </span>
      <span role="rowheader" className="c-num">
        <span className="shop" title={t('orders.shop')}>
          {o.shop}
        </span>{' '}
        <b>{o.orderNumber}</b>
      </span>
      <span role="cell" className="c-date">
        {dateTime(o.createdAt)}
      </span>
      <span role="cell" className="c-name">
        {o.recipient.name || '—'}
      </span>
      <span role="cell" className={`c-dest${o.needsFix.includes('postalCode') ? ' cell-bad' : ''}`}>
        {o.recipient.postalCode || (o.needsFix.includes('postalCode') ? t('orders.noPostalCode') : '')} {o.recipient.city} ({o.recipient.countryCode})
      </span>
      <span role="cell" className="c-lines" title={o.items.map((i) => `${i.quantity} × ${i.sku ?? ''} ${i.name}${i.fulfilled ? ` ${t('orders.lineSent')}` : ''}`).join('\n')}>
        {toShip}
        {sent > 0 ? <span className="muted"> {t('orders.moreSent', { count: sent })}</span> : null}
      </span>
      <span role="cell" className="c-total">
        {o.total !== undefined ? money(o.total, o.currency) : '—'}
      </span>
      <span role="cell" className="c-state">
        {o.status !== 'open' ? <span className={`tag ${o.status === 'cancelled' ? 'tag-bad' : 'tag-ok'}`}>{t(`orders.status.${o.status}`)}</span> : null}
        {o.paymentStatus === 'unpaid' ? <span className="tag tag-warn">{t('orders.tag.unpaid')}</span> : null}
        {o.needsFix.length ? <span className="tag tag-bad">{t('orders.tag.needsFix')}</span> : null}
        {o.delivery === 'pickup' ? <span className="tag tag-info">{t('orders.tag.pickup')}</span> : null}
      </span>
      <span role="cell" className="c-act">
        {open && o.delivery === 'ship' ? (
          <button type="button" className="btn btn-small" onClick={onOpen} aria-label={t(o.needsFix.length ? 'orders.fixLabel' : 'orders.shipLabel', { order: o.orderNumber, shop: o.shop })}>
            {o.needsFix.length ? t('orders.fix') : t('orders.ship')}
          </button>
        ) : null}
      </span>
    </>
  );
}

/** Completes an order imported without a postal code (or with a note too long), the field highlighted. */
function FixDialog() {
  const { fixing, fixErrors, fix, closeDialogs } = useOrders();
  const first = useRef<HTMLInputElement>(null);
  const [postalCode, setPostalCode] = useState('');
  const [notes, setNotes] = useState('');
  const onOpen = useCallback(() => {
    const o = useOrders.getState().fixing;
    setPostalCode(o?.recipient.postalCode ?? '');
    setNotes(o?.notes ?? '');
  }, []);
  const ref = useModalDialog(fixing !== null, first, onOpen);
  const o = fixing;
  const needsZip = o?.needsFix.includes('postalCode') ?? false;
  const needsNotes = o?.needsFix.includes('notes') ?? false;
  let zipError = fixErrors.postalCode?.[0];
  if (!zipError && o && needsZip && postalCode.trim() !== '') {
    zipError = recipientProblems({ ...o.recipient, postalCode: normalizePostalCode(postalCode, o.recipient.countryCode) }).postalCode;
  }
  const notesError = fixErrors.notes?.[0] ?? (needsNotes && notes.trim().length > ORDER_LIMITS.notes ? t('orders.notesTooLong', { count: notes.trim().length, max: ORDER_LIMITS.notes }) : undefined);
  return (
    <dialog
      ref={ref}
      className="confirm fix-dialog"
      aria-labelledby="fix-title"
      onCancel={(e) => {
        e.preventDefault();
        closeDialogs();
      }}
    >
      <h2 id="fix-title">
        {t('orders.complete', { order: o?.orderNumber ?? '' })} <span className="shop">{o?.shop}</span>
      </h2>
      {o ? (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (zipError || notesError) return;
            void fix({ ...(needsZip ? { postalCode } : {}), ...(needsNotes ? { notes: notes.trim() } : {}) });
          }}
        >
          <p>
            {o.recipient.name}, {o.recipient.street}, {o.recipient.city} ({o.recipient.countryCode})
          </p>
          {needsZip ? (
            <TextField
              id="fix-postal"
              ref={first}
              label={['AE', 'HK', 'QA', 'IE'].includes(o.recipient.countryCode) ? t('orders.fixPostalNoCodes', { country: o.recipient.countryCode }) : t('orders.fixPostal')}
              value={postalCode}
              onValue={setPostalCode}
              error={zipError ?? (postalCode.trim() === '' ? t('orders.postalRequired') : undefined)}
              className="field-highlight"
            />
          ) : null}
          {needsNotes ? (
            <div className={`field field-wide field-highlight${notesError ? ' field-bad' : ''}`}>
              <label htmlFor="fix-notes">{t('orders.fixNotes', { max: ORDER_LIMITS.notes })}</label>
              <textarea id="fix-notes" rows={5} value={notes} onChange={(e) => setNotes(e.target.value)} aria-invalid={notesError ? true : undefined} />
              <p className={notesError ? 'field-error' : 'field-hint'}>{notesError ?? `${notes.trim().length} / ${ORDER_LIMITS.notes}`}</p>
            </div>
          ) : null}
          <div className="actions">
            <button type="submit" className="btn btn-primary" disabled={(needsZip && postalCode.trim() === '') || Boolean(zipError) || Boolean(notesError)}>
              {t('orders.saveAndShip')}
            </button>
            <button type="button" className="btn" onClick={closeDialogs}>
              {t('orders.notNow')} <kbd>Esc</kbd>
            </button>
          </div>
        </form>
      ) : null}
    </dialog>
  );
}

function UnpaidDialog() {
  const { confirmUnpaid: o, confirmUnpaidYes, closeDialogs } = useOrders();
  return (
    <ConfirmDialog
      open={o !== null}
      title={t('orders.unpaidTitle', { order: o?.orderNumber ?? '' })}
      body={o ? (o.total !== undefined ? t('orders.unpaidBodyTotal', { shop: o.shop, total: money(o.total, o.currency) }) : t('orders.unpaidBody', { shop: o.shop })) : ''}
      confirmLabel={t('orders.unpaidYes')}
      cancelLabel={t('orders.unpaidNo')}
      onConfirm={confirmUnpaidYes}
      onCancel={closeDialogs}
    />
  );
}

/** Several shops have the scanned number: 1–9 or a click chooses. */
function ChoiceDialog() {
  const { choices, choose, closeDialogs } = useOrders();
  const first = useRef<HTMLButtonElement>(null);
  const ref = useModalDialog(choices !== null, first);
  return (
    <dialog
      ref={ref}
      className="confirm"
      aria-labelledby="choice-title"
      onCancel={(e) => {
        e.preventDefault();
        closeDialogs();
      }}
      onKeyDown={(e) => {
        const n = Number(e.key);
        const o = Number.isInteger(n) && n >= 1 ? choices?.orders[n - 1] : undefined;
        if (o) {
          e.preventDefault();
          choose(o);
        }
      }}
    >
      <h2 id="choice-title">{t('orders.whichShop', { code: choices?.code ?? '' })}</h2>
      <ol className="choices">
        {choices?.orders.map((o, i) => (
          <li key={o.id}>
            <button type="button" ref={i === 0 ? first : undefined} className="btn btn-choice" onClick={() => choose(o)} aria-keyshortcuts={String(i + 1)}>
              <kbd>{i + 1}</kbd> <span className="shop">{o.shop}</span> <b>{o.orderNumber}</b> — {o.recipient.name}, {o.recipient.city} ({o.recipient.countryCode}) · {t(`orders.status.${o.status}`)}
              {o.paymentStatus === 'unpaid' ? ` · ${t('orders.tag.unpaid')}` : ''}
            </button>
          </li>
        ))}
      </ol>
      <div className="actions">
        <button type="button" className="btn" onClick={closeDialogs}>
          {t('orders.noneOfThese')} <kbd>Esc</kbd>
        </button>
      </div>
    </dialog>
  );
}

function ImportCard() {
  const { report, importing, importCsv, lastShop, facets } = useOrders();
  const [shop, setShop] = useState(lastShop);
  const inputId = useId();
  return (
    <section className="card" aria-labelledby="import-title">
      <h2 id="import-title">{t('orders.import.title')}</h2>
      <TextField id="import-shop" label={t('orders.import.shop')} value={shop} onValue={setShop} placeholder="main" list="import-shops" maxLength={40} />
      <datalist id="import-shops">
        {facets.shops.map((s) => (
          <option key={s} value={s} />
        ))}
      </datalist>
      <div className="field">
        <label htmlFor={inputId}>{t('orders.import.file')}</label>
        <input
          id={inputId}
          type="file"
          accept=".csv,.txt,text/csv,text/plain"
          disabled={importing}
          onChange={(e) => {
            const f = e.target.files?.[0];
            e.target.value = '';
            if (f) void importCsv(f, shop);
          }}
        />
      </div>
      {importing ? <ImportProgressBar /> : null}
      {report ? <ImportReportView report={report} /> : null}
    </section>
  );
}

/** The import under way: a bar over the file's bytes (sent, then read) and the rows and orders found so far. */
function ImportProgressBar() {
  const progress = useOrders((s) => s.progress);
  const total = Math.max(1, progress?.total ?? 1);
  const done = Math.min(total, progress?.done ?? 0);
  const percent = Math.floor((done / total) * 100);
  const label =
    progress?.phase === 'reading'
      ? t('orders.import.reading', { percent, rows: progress.rows.toLocaleString(locale()), orders: progress.orders.toLocaleString(locale()) })
      : t('orders.import.sending', { percent });
  return (
    <div className="import-progress" data-testid="import-progress">
      <progress max={total} value={done} aria-label={t('orders.import.importing')} data-testid="import-progress-bar" />
      <p aria-live="polite" data-testid="import-progress-text">
        {progress ? label : t('orders.import.importing')}
      </p>
    </div>
  );
}

function ImportReportView({ report }: { report: NonNullable<ReturnType<typeof useOrders.getState>['report']> }) {
  const sep = report.delimiter === '\t' ? t('orders.import.tab') : report.delimiter;
  return (
    <div className="import-report" data-testid="import-report">
      <h3>
        {t('orders.import.reportFor', { file: report.fileName })} <span className="muted">{t('orders.import.reportOf', { shop: report.shop, encoding: report.encoding, sep })}</span>
      </h3>
      <dl className="counts">
        <div>
          <dt>{t('orders.import.new')}</dt>
          <dd data-testid="import-imported">{report.imported}</dd>
        </div>
        <div>
          <dt>{t('orders.import.updated')}</dt>
          <dd>{report.updated}</dd>
        </div>
        <div>
          <dt>{t('orders.import.unchanged')}</dt>
          <dd>{report.unchanged}</dd>
        </div>
        <div>
          <dt>{t('orders.import.left')}</dt>
          <dd>{report.skipped.length}</dd>
        </div>
        <div>
          <dt>{t('orders.import.cancelled')}</dt>
          <dd>{report.cancelled}</dd>
        </div>
        <div>
          <dt>{t('orders.import.notShippable')}</dt>
          <dd>{report.skippedNotShippable}</dd>
        </div>
        <div className={report.warnings.length ? 'count-warn' : ''}>
          <dt>{t('orders.import.toFix')}</dt>
          <dd>{report.warnings.length}</dd>
        </div>
        <div className={report.errors.length ? 'count-bad' : ''}>
          <dt>{t('orders.import.problems')}</dt>
          <dd data-testid="import-errors">{report.errors.length}</dd>
        </div>
      </dl>
      <IssueTable name={t('orders.import.problemsName')} title={t('orders.import.problemsTitle')} issues={report.errors} />
      <IssueTable name={t('orders.import.toFixName')} title={t('orders.import.toFixTitle')} issues={report.warnings} />
      {report.skipped.length ? (
        <table className="table table-compact" aria-label={t('orders.import.left')}>
          <caption>{t('orders.import.left')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('orders.import.col.order')}</th>
              <th scope="col">{t('orders.import.col.row')}</th>
              <th scope="col">{t('orders.import.col.why')}</th>
            </tr>
          </thead>
          <tbody>
            {report.skipped.slice(0, 200).map((k, i) => (
              <tr key={i}>
                <td>{k.order}</td>
                <td>{k.row}</td>
                <td>{k.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

function IssueTable({ name, title, issues }: { name: string; title: string; issues: ReadonlyArray<{ order?: string; row?: number; line: number; column: string; message: string }> }) {
  if (issues.length === 0) return null;
  return (
    <table className="table table-compact" aria-label={name}>
      <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">{t('orders.import.col.order')}</th>
          <th scope="col">{t('orders.import.col.row')}</th>
          <th scope="col">{t('orders.import.col.column')}</th>
          <th scope="col">{t('orders.import.col.problem')}</th>
        </tr>
      </thead>
      <tbody>
        {issues.map((e, i) => (
          <tr key={i}>
            <td>{e.order ?? '—'}</td>
            <td title={t('orders.import.lineOf', { line: e.line })}>{e.row ?? e.line}</td>
            <td>{e.column}</td>
            <td>{e.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
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
        <h2>{t('orders.manual.title')}</h2>
      </summary>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setSubmitted(true);
          if (Object.keys(manualErrors(d)).length) {
            useApp.getState().flash('error', t('orders.manual.fixFields'));
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
        <ErrorList title={t('pickup.alsoCheck')} errors={submitted ? unplacedErrors(errors, known) : []} />
        <div className="grid-2">
          {f('orderNumber', t('orders.manual.orderNumber'))}
          {f('name', t('orders.manual.name'))}
          {f('company', t('orders.manual.company'))}
          {f('phone', t('orders.manual.phone'), { type: 'tel' })}
          {f('street', t('orders.manual.street'), { wide: true })}
          {f('street2', t('orders.manual.street2'), { wide: true })}
          {f('postalCode', t('orders.manual.postalCode'))}
          {f('city', t('orders.manual.city'))}
          {f('province', t('orders.manual.province'))}
          {f('countryCode', t('orders.manual.countryCode'))}
          {f('email', t('orders.manual.email'), { type: 'email', wide: true })}
          {f('itemName', t('orders.manual.itemName'))}
          {f('itemSku', t('orders.manual.itemSku'))}
          {f('itemQty', t('orders.manual.itemQty'), { inputMode: 'numeric' })}
          {f('itemPrice', t('orders.manual.itemPrice'), { inputMode: 'decimal' })}
          {f('notes', t('orders.manual.notes'), { wide: true })}
        </div>
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={creating} onMouseDown={keepFocusOnMouseDown}>
            {t('orders.manual.create')}
          </button>
        </div>
      </form>
    </details>
  );
}
