/**
 * The order list of the Orders panel, virtualised (@tanstack/react-virtual:
 * only the visible rows are in the DOM, pages of 100 are fetched from the
 * core as they scroll into view), searched by number, name, city or SKU and
 * filtered by shop, country, shipping method, unpaid and needs-fix in SQLite.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import { linesToShip, type OrderView, type StationOrder } from '../../../../shared/domain/order';
import { SelectField, TextField } from '../../components/Field';
import { dateTime, money } from '../../lib/format';
import { locale, t } from '../../lib/i18n';
import { useOrders } from '../../stores/orders';
import { useScan } from '../../stores/scan';

/** The order views of the Show menu; each one's name is the text `orders.view.<view>`. */
const VIEWS: OrderView[] = ['to_ship', 'pickup', 'shipped', 'cancelled', 'all'];
const ROW_HEIGHT = 44;
/** Height of the scrolling list, px: 14 rows, then it scrolls. */
const LIST_HEIGHT = 14 * ROW_HEIGHT;

/** The order list: search, filters, sort, the virtualised table and sending the selected orders. */
export function OrderList() {
  const { query, total, rows, loading, facets, selected, submitting, setQuery, ensureRange, toggleSelected, submitSelected } = useOrders();
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
                    {o ? <OrderRow o={o} selected={selected.has(o.id)} onToggle={() => toggleSelected(o.id)} onOpen={() => void useScan.getState().openOrder(o)} /> : <span className="c-loading">{t('common.loading')}</span>}
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
