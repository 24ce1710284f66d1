/**
 * The platform's panels of the supervisor's page (issue 44 item 5, issue 43 item 6), drawn from `GET
 * /api/platform` and `GET /api/budget` (electron/warehouse/platform-view.ts): the held parcels for "Needs
 * attention", the delivery exceptions (counts per day and carrier, each open one with its order and the
 * carrier's last event), the endpoint (its address, whether the platform still has it active, its recent
 * deliveries, the test button) and the account's budget. Every word from ./words.ts; every text by `textContent`.
 */
import type { BudgetView, ExceptionCount, PlatformAnswer } from '../platform-view';
import { AHEAD_WORDS, euros } from './ahead-words';
import { fill, type ExceptionKind, type Language, type PageWords } from './words';

/** How the page writes times and days in its language. */
export interface Formats {
  language: Language;
  /** `HH:MM` (Europe/Rome), the day before it when not today. */
  when: (isoTime: string) => string;
  /** A `YYYY-MM-DD` day the language's way. */
  day: (day: string) => string;
}

/** The exception kinds in the panel's column order. */
const KINDS: readonly ExceptionKind[] = ['held_at_depot', 'undelivered', 'returned_to_sender', 'awaiting_instructions', 'awaiting_collection'];

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (className) e.className = className;
  return e;
}

/** The held parcels as "Needs attention" lists them: order, tracking number, carrier, packer, days held. */
export function heldItems(p: PlatformAnswer | null, w: PageWords): HTMLElement[] {
  const t = w.platform;
  return (p?.held ?? []).map((h) => {
    const days = h.daysHeld === 0 ? t.heldDays.zero : h.daysHeld === 1 ? t.heldDays.one : fill(t.heldDays.other, { n: h.daysHeld });
    const line = fill(t.heldLine, { order: h.orderKey ?? t.unknown, tn: h.trackingNumber, carrier: h.carrier ?? t.unknown, packer: h.packer ? fill(t.heldPacker, { p: h.packer }) : '', days });
    const li = el('li', h.status === 'instructed' ? `${line} · ${t.instructed}` : line, 'held');
    li.dataset.trackingNumber = h.trackingNumber;
    return li;
  });
}

/** The table of exceptions begun per day and carrier, a column per kind and a total. */
function perDayTable(rows: readonly ExceptionCount[], w: PageWords, f: Formats): HTMLTableElement {
  const t = w.platform;
  const table = el('table', undefined, 'exceptions-per-day');
  table.setAttribute('aria-label', t.perDay);
  const head = el('tr');
  head.append(el('th', w.day), el('th', t.carrier), ...KINDS.map((k) => el('th', t.exceptionKind[k])), el('th', t.total));
  table.append(el('thead'), el('tbody'));
  table.tHead!.append(head);
  const groups = new Map<string, Map<ExceptionKind, number>>();
  for (const r of rows) {
    const key = `${r.day}\u0000${r.carrier}`;
    const g = groups.get(key) ?? new Map<ExceptionKind, number>();
    g.set(r.statusKey, (g.get(r.statusKey) ?? 0) + r.n);
    groups.set(key, g);
  }
  for (const [key, counts] of groups) {
    const [day = '', carrier = ''] = key.split('\u0000');
    const tr = el('tr');
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    tr.append(el('td', f.day(day)), el('td', carrier || t.unknown), ...KINDS.map((k) => el('td', String(counts.get(k) ?? 0), 'n')), el('td', String(total), 'n'));
    table.tBodies[0]!.append(tr);
  }
  return table;
}

/** The exceptions panel: counts per day and carrier, then every open exception with its order and last carrier event. */
export function exceptionsPanel(p: PlatformAnswer | null, w: PageWords, f: Formats): HTMLElement[] {
  const t = w.platform;
  if (!p || (p.exceptionsPerDay.length === 0 && p.exceptions.length === 0)) return [el('p', t.noExceptions, 'muted')];
  const out: HTMLElement[] = [perDayTable(p.exceptionsPerDay, w, f)];
  if (p.exceptions.length) {
    out.push(el('h3', t.openNow));
    const ul = el('ul', undefined, 'exceptions-open');
    for (const x of p.exceptions) {
      const li = el('li', fill(t.exceptionLine, { status: t.exceptionKind[x.statusKey], order: x.orderKey ?? t.unknown, tn: x.trackingNumber, carrier: x.carrier ?? t.unknown, t: f.when(x.since) }));
      li.dataset.trackingNumber = x.trackingNumber;
      if (x.lastEvent) li.append(el('div', fill(t.lastEvent, { e: x.lastEvent }), 'muted'));
      ul.append(li);
    }
    out.push(ul);
  }
  return out;
}

/**
 * The endpoint panel: the address and the platform's word on it, or the one sentence of a deactivated one, or
 * that there is none (events by the catch-up alone); its recent deliveries, the test button and its outcome
 * (`testNotice`), the last catch-up.
 */
export function endpointPanel(p: PlatformAnswer | null, w: PageWords, f: Formats, testNotice: string, onTest: () => void): HTMLElement[] {
  const t = w.platform;
  if (!p) return [];
  const out: HTMLElement[] = [];
  if (!p.platformGiven) out.push(el('p', t.noPlatform, 'muted'));
  const e = p.endpoint;
  if (!e) out.push(el('p', t.noEndpoint, 'endpoint-none'));
  else {
    const dl = el('dl', undefined, 'endpoint');
    // Without the account nothing could be asked: the sentence above says so (the server's reason is English).
    const state = e.isActive === true ? t.activeYes : e.isActive === null && p.platformGiven ? fill(t.activeUnknown, { problem: e.problem ?? '' }) : null;
    dl.append(el('dt', t.address), el('dd', e.url));
    if (state !== null) dl.append(el('dt', t.active), el('dd', state));
    out.push(dl);
    if (e.isActive === false) out.push(el('p', t.deactivated, 'error endpoint-deactivated'));
    out.push(el('h3', t.deliveries));
    if (!e.deliveries.length) out.push(el('p', t.noDeliveries, 'muted'));
    else {
      const ul = el('ul', undefined, 'deliveries');
      for (const d of e.deliveries) {
        const code = d.responseCode === 0 ? t.noAnswer : String(d.responseCode);
        ul.append(el('li', `${f.when(d.at)} · ${d.event}${d.trackingNumber ? ` · ${d.trackingNumber}` : ''} · ${fill(d.status === 'success' ? t.deliveryOk : t.deliveryFailed, { code })}`));
      }
      out.push(ul);
    }
    if (p.platformGiven) {
      const row = el('div', undefined, 'test-row');
      const button = el('button', t.test);
      button.type = 'button';
      button.id = 'endpoint-test';
      button.addEventListener('click', onTest);
      row.append(button, el('span', t.testLimit, 'muted'));
      out.push(row);
      const notice = el('p', testNotice, 'test-notice');
      notice.setAttribute('role', 'status');
      out.push(notice);
    }
  }
  const c = p.catchUp;
  if (c) out.push(el('p', c.result ? fill(t.catchUp, { t: f.when(c.at), found: c.result.found, stored: c.result.stored }) : fill(t.catchUpFailed, { t: f.when(c.at), problem: c.problem ?? '' }), 'muted'));
  return out;
}

/**
 * Sends the platform's test event through `POST api/platform/test`.
 * @returns what to say, in the page's words
 */
export async function sendTest(w: PageWords): Promise<string> {
  const t = w.platform;
  const res = await fetch('api/platform/test', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  const body = (await res.json().catch(() => null)) as { delivered?: boolean; responseCode?: number; error?: { message?: string } } | null;
  if (res.ok) return fill(body?.delivered ? t.testDelivered : t.testNotDelivered, { code: body?.responseCode ? String(body.responseCode) : t.noAnswer });
  if (res.status === 429) return fill(t.testTooMany, { s: res.headers.get('retry-after') ?? '60' });
  return fill(t.testRefused, { message: body?.error?.message ?? String(res.status) });
}

/** A duration in the language's way: `0,4 s` in Italian, `0.4 s` in English. */
const seconds = (ms: number | null, f: Formats, w: PageWords): string =>
  ms === null ? w.platform.unknown : `${(ms / 1000).toLocaleString(f.language === 'it' ? 'it-IT' : 'en-GB', { maximumFractionDigits: 1, minimumFractionDigits: 1 })} s`;

/** The account's budget: labels and quotes used this minute of their limit, the queue, the packers' label wait, 429s today. */
export function budgetPanel(b: BudgetView | null, w: PageWords, f: Formats): HTMLElement[] {
  const t = w.platform;
  if (!b) return [];
  const dl = el('dl', undefined, 'budget');
  const row = (k: string, v: string, id: string) => {
    const dd = el('dd', v);
    dd.dataset.figure = id;
    dl.append(el('dt', k), dd);
  };
  row(t.labels, fill(t.ofLimit, { used: b.labelsUsed, limit: b.labelsLimit }), 'labels');
  row(t.quotes, fill(t.ofLimit, { used: b.quotesUsed, limit: b.quotesLimit }), 'quotes');
  const labels = b.queue['POST /shipments'] ?? 0;
  const quotes = b.queue['POST /rates'] ?? 0;
  const other = Object.values(b.queue).reduce((a, n) => a + n, 0) - labels - quotes;
  row(t.queue, fill(t.queueLine, { labels, quotes, other }), 'queue');
  const lw = b.labelWait;
  row(t.labelWait, lw.labels === 0 ? t.labelWaitNone : fill(t.labelWaitLine, { p50: seconds(lw.p50Ms, f, w), p95: seconds(lw.p95Ms, f, w), n: lw.labels }), 'label-wait');
  const a = AHEAD_WORDS[f.language];
  const today = b.labelWaitToday;
  row(a.labelWaitToday, today.labels === 0 ? a.labelWaitTodayNone : fill(t.labelWaitLine, { p50: seconds(today.p50Ms, f, w), p95: seconds(today.p95Ms, f, w), n: today.labels }), 'label-wait-today');
  row(t.refusals, String(b.refusalsToday), 'refusals');
  const n = (x: number) => x.toLocaleString(f.language === 'it' ? 'it-IT' : 'en-GB');
  const h = b.ahead;
  row(a.aheadWaiting, fill(a.aheadWaitingLine, { waiting: n(h.waiting), batched: n(h.batched) }), 'ahead-now');
  row(a.aheadToday, fill(a.aheadTodayLine, { bought: n(h.bought), printed: n(h.printed), used: n(h.used) }), 'ahead-today');
  row(a.aheadCancelled, fill(h.cancelled === 1 ? a.aheadCancelledLineOne : a.aheadCancelledLine, { n: n(h.cancelled), eur: euros(h.refunded, f.language) }), 'ahead-cancelled');
  return [dl];
}
