/**
 * The supervisor's page in the browser (issue 35 item 5): sign-in with a supervisor's PIN or badge, then the
 * floor read from `GET /api/floor` every second (live within 2 s, no reload): every bench (an offline one
 * as last known, with when), what needs attention (with the release of an old claim, and the writes the
 * warehouse refused), shipments per hour per bench and per packer as ECharts charts (the library of End of
 * day; its prebuilt browser file is loaded before this script as the global `echarts`), and the day report
 * of a day typed in the page's language (./day-field.ts). Italian and English (./words.ts): the server
 * writes the language of the browser's Accept-Language in `<html lang>`, the switch overrides it (kept in
 * localStorage); no word comes from the browser's own language. Served by electron/warehouse/server.ts,
 * bundled by esbuild at start; every text goes in with `textContent`.
 */
import type * as Echarts from 'echarts';
import { addDays, romeDay } from '../../../shared/domain/rome-day';
import type { WarehouseRefusal } from '../../core/common/services';
import type { Floor, FloorBench, HourlyShipments } from '../floor';
import { dayInWords, dayText, parseDayText } from './day-field';
import { fill, printerNameText, refusedWhat, WORDS, type Language, type PageWords } from './words';
import type { BudgetView, PlatformAnswer } from '../platform-view';
import type { AheadAnswer } from '../ahead-types';
import { createAheadPanels } from './ahead-panel';
import { AHEAD_WORDS } from './ahead-words';
import { budgetPanel, endpointPanel, exceptionsPanel, heldItems, sendTest, type Formats } from './platform-panel';

declare const echarts: typeof Echarts;

const COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000'];

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

const kept = localStorage.getItem('warehouse.language');
let language: Language = kept === 'it' || kept === 'en' ? kept : document.documentElement.lang === 'it' ? 'it' : 'en';
let floor: Floor | null = null;
let lastRead = 0;
let notice = '';
let supervisorName = '';
/** The platform's events (`GET /api/platform`) and the account's budget (`GET /api/budget`), read with the floor. */
let platform: PlatformAnswer | null = null;
let budget: BudgetView | null = null;
/** Labels ahead, batch prints and the day's close (`GET /api/ahead`, ./ahead-panel.ts). */
let ahead: AheadAnswer | null = null;
let testNotice = '';
const w = () => WORDS[language];

/** The day of the report (`YYYY-MM-DD`), null while the field holds no valid day. */
let reportDay: string | null = null;

/** `HH:MM` of an ISO time, Europe/Rome (the benches' day). */
const time = (isoTime: string): string => new Date(isoTime).toLocaleTimeString(language === 'it' ? 'it-IT' : 'en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Rome' });

/** `HH:MM` of an ISO time, its day before it when that is not the floor's (a bench silent since yesterday). */
const when = (isoTime: string): string => {
  const day = romeDay(Date.parse(isoTime));
  return day === floor?.day ? time(isoTime) : `${dayText(day, language)} ${time(isoTime)}`;
};

/** How long ago `isoTime` was at the floor's clock: `45 s`, `7 min`, `2 h 5 min`. */
const ago = (isoTime: string): string => {
  const s = Math.max(0, Math.round((Date.parse(floor?.at ?? isoTime) - Date.parse(isoTime)) / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m} min` : `${Math.floor(m / 60)} h ${m % 60} min`;
};

/** A printer state (shared/contract/views.ts PrinterView) in words; an unknown one as the bench sent it. */
const printerState = (state: string): string => (w().printerState as Record<string, string>)[state] ?? state;

/** A new element with `text` and class. */
function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (className) e.className = className;
  return e;
}

async function api<T>(path: string, body?: object): Promise<{ status: number; data: T }> {
  const res = await fetch(path, body ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {});
  return { status: res.status, data: (await res.json().catch(() => null)) as T };
}

function showSignIn(show: boolean): void {
  $('sign-in').hidden = !show;
  $('floor').hidden = show;
  $('sign-out').hidden = show;
  if (show) $<HTMLInputElement>('pin').focus();
}

/** One bench's card; an offline bench's says when it was last heard and marks what it said then as last known. */
function benchCard(b: FloorBench): HTMLElement {
  const card = el('article', undefined, `bench ${b.state}`);
  card.dataset.bench = b.name;
  const h = el('h3');
  h.append(el('span', b.name), el('span', w().state[b.state], 'state'));
  card.append(h);
  const offline = b.state === 'offline';
  if (offline) card.append(el('p', fill(w().lastKnownAt, { t: when(b.heartbeatAt), ago: ago(b.heartbeatAt) }), 'last-known'));
  const dl = el('dl');
  const row = (k: string, v: string, stale = false) => dl.append(el('dt', k), el('dd', v, stale ? 'stale' : undefined));
  const label = (live: string, key: keyof PageWords['lastKnown']) => (offline ? w().lastKnown[key] : live);
  const printerName = printerNameText(b.printer.name, w());
  row(label(w().packer, 'packer'), b.packer ?? w().none, offline);
  row(label(w().order, 'order'), b.order ?? w().none, offline);
  row(label(w().printer, 'printer'), printerName ? `${printerName} · ${printerState(b.printer.state)}` : printerState(b.printer.state), offline);
  row(label(w().queue, 'queue'), String(b.queue), offline);
  row(label(w().refusedShort, 'refused'), String(b.refused), offline);
  row(w().lastLabel, b.lastLabel ? `${b.lastLabel.trackingNumber} · ${when(b.lastLabel.at)}` : w().none);
  card.append(dl);
  return card;
}

function attentionList(f: Floor): HTMLElement {
  const box = el('div', undefined, 'attention');
  const a = f.attention;
  const list = (title: string, items: Array<HTMLElement>) => {
    if (!items.length) return;
    box.append(el('h3', title));
    const ul = el('ul');
    ul.append(...items);
    box.append(ul);
  };
  list(w().platform.held, heldItems(platform, w()));
  list(w().offline, a.offline.map((o) => el('li', `${o.bench}: ${fill(w().offlineSince, { t: when(o.since) })}`)));
  list(w().printers, a.printers.map((p) => el('li', `${p.bench}: ${printerState(p.state)}`)));
  list(w().refusedRequests, a.refused.map((r) => el('li', fill(w().refusedLine, { bench: r.bench, n: r.refused }))));
  if (a.warehouseRefusals.length) {
    list(
      w().warehouseRefusals,
      a.warehouseRefusals.map((b) => {
        const li = el('li', b.bench, 'refusals');
        li.dataset.bench = b.bench;
        const ul = el('ul');
        const line = (r: WarehouseRefusal) => `${fill(w().refusalLine, { t: when(r.at), what: refusedWhat(r.what, w()), message: r.message })}${r.code ? ` (${r.code})` : ''}`;
        ul.append(...b.refusals.map((r) => el('li', line(r))));
        li.append(ul);
        return li;
      }),
    );
    box.querySelector('h3:last-of-type')?.after(el('p', w().warehouseRefusalsNote, 'muted'));
  }
  list(w().labelsHeld, a.labelsHeld.map((h) => el('li', fill(w().labelsHeldLine, { bench: h.bench, n: h.held }))));
  list(w().verifyMismatches, a.verifyMismatches.map((v) => el('li', `${time(v.at)} ${v.bench}${v.packer ? fill(w().by, { p: v.packer }) : ''}: ${v.subject ?? ''}`)));
  list(
    w().oldClaims,
    a.oldClaims.map((c) => {
      const li = el('li', fill(w().claimLine, { order: c.orderKey, bench: c.bench, packer: c.packer ? fill(w().claimPacker, { p: c.packer }) : '', m: c.minutes }));
      const button = el('button', w().release);
      button.type = 'button';
      button.addEventListener('click', () => void release(c.orderKey));
      li.append(button);
      return li;
    }),
  );
  if (!box.childElementCount) box.append(el('p', w().nothing));
  if (notice) box.append(el('p', notice, 'muted'));
  return box;
}

const charts = new Map<string, Echarts.ECharts>();

/** Draws `series` (shipments per hour of each bench or packer) in the chart `id`, stacked bars. */
function drawChart(id: string, title: string, series: readonly HourlyShipments[], hours: readonly number[]): void {
  const box = $(id);
  let chart = charts.get(id);
  if (!chart) {
    chart = echarts.init(box, null, { renderer: 'svg' });
    charts.set(id, chart);
  }
  const total = series.reduce((s, x) => s + x.total, 0);
  box.dataset.total = String(total);
  chart.setOption(
    {
      animation: false,
      color: COLOURS,
      // ECharts writes the description as the box's aria-label.
      aria: { enabled: true, label: { description: `${title}: ${total}` } },
      title: { text: title, left: 'center', textStyle: { fontSize: 14 } },
      tooltip: { trigger: 'axis' },
      legend: { bottom: 0, type: 'scroll' },
      grid: { left: 48, right: 16, top: 40, bottom: 56 },
      xAxis: { type: 'category', name: w().hour, data: hours.map((h) => `${String(h).padStart(2, '0')}:00`) },
      yAxis: { type: 'value', name: w().shipments, minInterval: 1 },
      // By name, so a bench keeps its colour when another overtakes it.
      series: [...series].sort((a, b) => a.name.localeCompare(b.name)).map((s) => ({ type: 'bar', name: s.name, stack: 'all', data: hours.map((h) => s.hours[h] ?? 0) })),
    },
    { notMerge: true },
  );
}

/** The hours the charts show: from 8:00 to 18:00, widened to every hour that had a shipment. */
function chartHours(f: Floor): number[] {
  const busy = f.perHour.benches.flatMap((s) => s.hours.flatMap((n, h) => (n > 0 ? [h] : [])));
  const first = Math.min(8, ...busy);
  const last = Math.max(18, ...busy);
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

/** Today's day (`YYYY-MM-DD`, Europe/Rome) by the database's clock, else the browser's: the last day with a report. */
const today = (): string => floor?.day ?? romeDay(Date.now());

/** What the day field holds: a day of the report (or null), and the error to show ('' when none). */
let dayState: { error: 'format' | 'no_such_day' | 'after_today' | null; text: string } = { error: null, text: '' };
/** Whether the supervisor has set the day (else it follows today). */
let dayChosen = false;

/** Makes `day` the report's and writes it in the field in the page's language. */
function setDay(day: string): void {
  reportDay = day;
  dayState = { error: null, text: '' };
  $<HTMLInputElement>('day').value = dayText(day, language);
  render();
}

/** Reads the field: a day becomes the report's; otherwise no report links, and `commit` (Enter, leaving the field) says what to write. */
function readDay(commit: boolean): void {
  dayChosen = true;
  const field = $<HTMLInputElement>('day');
  const parsed = parseDayText(field.value, language, today());
  if ('day' in parsed) {
    if (commit) setDay(parsed.day);
    else {
      reportDay = parsed.day;
      dayState = { error: null, text: '' };
      render();
    }
    return;
  }
  reportDay = null;
  dayState = commit || dayState.error !== null ? { error: parsed.error, text: field.value.trim() } : dayState;
  render();
}

/** The day field's error in the page's words, '' when none. */
function dayErrorText(): string {
  const t = { text: dayState.text, today: dayText(today(), language), example: dayText(today(), language) };
  if (dayState.error === 'format') return fill(w().dayBadFormat, t);
  if (dayState.error === 'no_such_day') return fill(w().dayNoSuch, t);
  if (dayState.error === 'after_today') return fill(w().dayAfterToday, t);
  return '';
}

/** The report's day field, its buttons and links, in the page's language. */
function renderDay(): void {
  const field = $<HTMLInputElement>('day');
  field.placeholder = w().dayFormat;
  const error = dayErrorText();
  field.setAttribute('aria-invalid', String(error !== ''));
  $('day-error').textContent = error;
  $('day-words').textContent = reportDay ? dayInWords(reportDay, language) : '';
  for (const [id, label] of [['day-previous', w().dayPrevious], ['day-next', w().dayNext]] as const) {
    $(id).setAttribute('aria-label', label);
    $(id).title = label;
  }
  $<HTMLButtonElement>('day-next').disabled = reportDay !== null && reportDay >= today();
  for (const kind of ['csv', 'pdf'] as const) {
    const link = $<HTMLAnchorElement>(`report-${kind}`);
    if (reportDay === null) {
      link.removeAttribute('href');
      link.setAttribute('aria-disabled', 'true');
    } else {
      link.href = `api/report.${kind}?day=${encodeURIComponent(reportDay)}&lang=${language}`;
      link.removeAttribute('aria-disabled');
    }
  }
}

/** Puts every word of the page in the current language and draws the floor. */
function render(): void {
  document.documentElement.lang = language;
  document.title = w().title;
  $('title').textContent = w().title;
  for (const l of ['it', 'en'] as const) $(`lang-${l}`).setAttribute('aria-pressed', String(l === language));
  $('lang-group').setAttribute('aria-label', w().language);
  $('sign-in-title').textContent = w().signInTitle;
  $('pin-label').textContent = w().pin;
  $('badge-label').textContent = w().badge;
  $('sign-in-button').textContent = w().signIn;
  $('sign-out').textContent = w().signOut;
  $('benches-title').textContent = w().benches;
  $('attention-title').textContent = w().attention;
  $('report-title').textContent = w().report;
  $('day-label').textContent = w().day;
  $('who').textContent = supervisorName ? fill(w().signedInAs, { n: supervisorName }) : '';
  renderDay();
  if (!floor) return;
  $('clock').textContent = time(floor.at);
  const stale = Date.now() - lastRead > 5000;
  $('stale').hidden = !stale;
  $('stale').textContent = stale ? fill(w().stale, { t: time(floor.at) }) : '';
  $('benches').replaceChildren(...floor.benches.map(benchCard));
  $('attention').replaceChildren(attentionList(floor));
  const formats: Formats = { language, when, day: (d) => dayText(d, language) };
  $('exceptions-title').textContent = w().platform.exceptions;
  $('exceptions').replaceChildren(...exceptionsPanel(platform, w(), formats));
  $('endpoint-title').textContent = w().platform.endpoint;
  $('endpoint').replaceChildren(...endpointPanel(platform, w(), formats, testNotice, () => void test()));
  $('budget-title').textContent = w().platform.budget;
  $('budget').replaceChildren(...budgetPanel(budget, w(), formats));
  const a = AHEAD_WORDS[language];
  $('ahead-settings-title').textContent = a.settingsTitle;
  $('batch-title').textContent = a.batchTitle;
  $('close-title').textContent = a.closeTitle;
  aheadPanels.render(ahead, language, when);
  const hours = chartHours(floor);
  drawChart('chart-benches', w().perBench, floor.perHour.benches, hours);
  drawChart('chart-packers', w().perPacker, floor.perHour.packers, hours);
}

async function release(orderKey: string): Promise<void> {
  const res = await api<{ released?: { orderKey: string } }>('api/claims/release', { orderKey });
  notice = res.status === 200 ? fill(w().released, { order: orderKey }) : '';
  await poll();
}

/** The platform's test send; what it said stays under the button. */
async function test(): Promise<void> {
  testNotice = await sendTest(w());
  render();
}

let signedIn = false;
const aheadPanels = createAheadPanels({ settings: $('ahead-settings'), batch: $('batch'), close: $('close') }, () => void poll());

/** Reads the floor; a 401 shows the sign-in. */
async function poll(): Promise<void> {
  try {
    const res = await api<Floor>('api/floor');
    if (res.status === 401) {
      signedIn = false;
      showSignIn(true);
      return;
    }
    if (res.status === 200) {
      const [p, b, a] = await Promise.all([api<PlatformAnswer>('api/platform'), api<BudgetView>('api/budget'), api<AheadAnswer>('api/ahead')]);
      if (p.status === 200) platform = p.data;
      if (b.status === 200) budget = b.data;
      if (a.status === 200) ahead = a.data;
      floor = res.data;
      lastRead = Date.now();
      // The report's day follows today until the supervisor sets one.
      if (!dayChosen && reportDay !== floor.day) setDay(floor.day);
    }
  } catch {
    // The page's server is away: the figures say how old they are.
  }
  render();
}

async function start(): Promise<void> {
  const session = await api<{ supervisor?: { name?: string } }>('api/session');
  signedIn = session.status === 200;
  supervisorName = signedIn ? (session.data.supervisor?.name ?? '') : '';
  showSignIn(!signedIn);
  render();
  if (signedIn) await poll();
}

$('sign-in-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const pin = $<HTMLInputElement>('pin').value;
  const badge = $<HTMLInputElement>('badge').value;
  void (async () => {
    const res = await api<{ supervisor?: { name: string }; error?: { code: string } }>('api/sign-in', pin ? { pin } : { badge });
    $<HTMLInputElement>('pin').value = '';
    $<HTMLInputElement>('badge').value = '';
    $('sign-in-error').textContent = res.status === 200 ? '' : res.data.error?.code === 'locked' ? w().locked : w().refused;
    if (res.status === 200) await start();
  })();
});
$('sign-out').addEventListener('click', () => {
  void api('api/sign-out', {}).then(() => {
    signedIn = false;
    floor = null;
    platform = null;
    budget = null;
    ahead = null;
    supervisorName = '';
    showSignIn(true);
  });
});
for (const l of ['it', 'en'] as const) {
  $(`lang-${l}`).addEventListener('click', () => {
    language = l;
    localStorage.setItem('warehouse.language', l);
    // The day in the field is written again the new language's way; a wrong one is read again by its rules.
    if (reportDay !== null) setDay(reportDay);
    else if (dayState.error !== null) readDay(true);
    else render();
  });
}
$('day').addEventListener('input', () => readDay(false));
$('day').addEventListener('change', () => readDay(true));
$('day').addEventListener('keydown', (e) => {
  if (e.key === 'Enter') readDay(true);
});
for (const [id, step] of [['day-previous', -1], ['day-next', 1]] as const) {
  $(id).addEventListener('click', () => {
    dayChosen = true;
    const next = addDays(reportDay ?? today(), step);
    setDay(next > today() ? today() : next);
  });
}
window.addEventListener('resize', () => charts.forEach((c) => c.resize()));
setInterval(() => {
  if (signedIn) void poll();
}, 1000);
void start();
