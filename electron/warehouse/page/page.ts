/**
 * The supervisor's page in the browser (issue 35 item 5): sign-in with a supervisor's PIN or badge, then the
 * floor read from `GET /api/floor` every second (live within 2 s, no reload): every bench, what needs
 * attention (with the release of an old claim), shipments per hour per bench and per packer as ECharts
 * charts (the library of End of day; its prebuilt browser file is loaded before this script as the global
 * `echarts`), and links to the day report. Italian and English: the server writes the language of the
 * browser's Accept-Language in `<html lang>`, the switch overrides it (kept in localStorage). Served by
 * electron/warehouse/server.ts, transpiled by esbuild at start; every text goes in with `textContent`.
 */
import type * as Echarts from 'echarts';
import type { Floor, FloorBench, HourlyShipments } from '../floor';

declare const echarts: typeof Echarts;

type Language = 'it' | 'en';

const WORDS = {
  en: {
    title: 'Warehouse floor',
    signInTitle: 'Supervisor sign-in',
    pin: 'PIN',
    badge: 'or scan your badge',
    signIn: 'Sign in',
    signOut: 'Sign out',
    refused: 'Not a supervisor of this warehouse.',
    locked: 'Too many wrong tries: wait a minute.',
    benches: 'Benches',
    attention: 'Needs attention',
    nothing: 'Nothing needs attention.',
    offline: 'Benches offline',
    offlineSince: 'silent since {t}',
    printers: 'Printers that cannot print',
    refusedRequests: 'Refused requests',
    refusedLine: '{bench}: {n} waiting for the packer',
    labelsHeld: 'Labels held: longer than the labels loaded',
    labelsHeldLine: '{bench}: {n} (load longer labels there, or print them shrunk)',
    printerState: { ready: 'ready', paper_out: 'out of paper', head_open: 'head open', paused: 'paused', error: 'error', unreachable: 'unreachable', unknown: 'unknown' },
    verifyMismatches: 'Verify mismatches today',
    oldClaims: 'Orders claimed for more than 15 minutes',
    claimLine: '{order} at {bench}{packer}, for {m} min',
    release: 'Release',
    released: 'Released {order}.',
    perBench: 'Shipments per hour per bench (today)',
    perPacker: 'Shipments per hour per packer (today)',
    report: 'Day report of the whole warehouse',
    day: 'Day',
    stale: 'The warehouse database does not answer: figures from {t}.',
    state: { idle: 'idle', packing: 'packing', offline: 'offline' },
    packer: 'Packer',
    order: 'Order',
    printer: 'Printer',
    queue: 'Queue',
    refusedShort: 'Refused',
    lastLabel: 'Last label',
    none: '—',
    by: ' by {p}',
    hour: 'Hour',
    shipments: 'Shipments',
    signedInAs: 'Signed in: {n}',
  },
  it: {
    title: 'Magazzino',
    signInTitle: 'Accesso del responsabile',
    pin: 'PIN',
    badge: 'oppure leggi il tuo badge',
    signIn: 'Entra',
    signOut: 'Esci',
    refused: 'Non è un responsabile di questo magazzino.',
    locked: 'Troppi tentativi sbagliati: attendi un minuto.',
    benches: 'Banchi',
    attention: 'Da controllare',
    nothing: 'Niente da controllare.',
    offline: 'Banchi non collegati',
    offlineSince: 'in silenzio dalle {t}',
    printers: 'Stampanti che non stampano',
    refusedRequests: 'Richieste rifiutate',
    refusedLine: '{bench}: {n} in attesa dell’operatore',
    labelsHeld: 'Etichette trattenute: più lunghe di quelle caricate',
    labelsHeldLine: '{bench}: {n} (carica lì etichette più lunghe, o stampale ridotte)',
    printerState: { ready: 'pronta', paper_out: 'senza carta', head_open: 'testina aperta', paused: 'in pausa', error: 'in errore', unreachable: 'non raggiungibile', unknown: 'sconosciuto' },
    verifyMismatches: 'Verifiche non corrispondenti oggi',
    oldClaims: 'Ordini presi da più di 15 minuti',
    claimLine: '{order} al {bench}{packer}, da {m} min',
    release: 'Libera',
    released: '{order} liberato.',
    perBench: 'Spedizioni per ora per banco (oggi)',
    perPacker: 'Spedizioni per ora per operatore (oggi)',
    report: 'Rapporto del giorno di tutto il magazzino',
    day: 'Giorno',
    stale: 'Il database del magazzino non risponde: dati delle {t}.',
    state: { idle: 'libero', packing: 'in lavorazione', offline: 'non collegato' },
    packer: 'Operatore',
    order: 'Ordine',
    printer: 'Stampante',
    queue: 'In coda',
    refusedShort: 'Rifiutate',
    lastLabel: 'Ultima etichetta',
    none: '—',
    by: ' da {p}',
    hour: 'Ora',
    shipments: 'Spedizioni',
    signedInAs: 'Connesso: {n}',
  },
} as const;

const COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000'];

const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;
const fill = (s: string, v: Record<string, string | number>): string => s.replace(/\{(\w+)\}/g, (_, k: string) => String(v[k] ?? ''));

let language: Language = (localStorage.getItem('warehouse.language') as Language | null) ?? (document.documentElement.lang === 'it' ? 'it' : 'en');
let floor: Floor | null = null;
let lastRead = 0;
let notice = '';
let supervisorName = '';
const w = () => WORDS[language];

/** `HH:MM` of an ISO time, Europe/Rome (the benches' day). */
const time = (isoTime: string): string => new Date(isoTime).toLocaleTimeString(language === 'it' ? 'it-IT' : 'en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Rome' });

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

function benchCard(b: FloorBench): HTMLElement {
  const card = el('article', undefined, `bench ${b.state}`);
  card.dataset.bench = b.name;
  const h = el('h3');
  h.append(el('span', b.name), el('span', w().state[b.state], 'state'));
  const dl = el('dl');
  const row = (k: string, v: string) => dl.append(el('dt', k), el('dd', v));
  row(w().packer, b.packer ?? w().none);
  row(w().order, b.order ?? w().none);
  row(w().printer, b.printer.name ? `${b.printer.name} · ${printerState(b.printer.state)}` : printerState(b.printer.state));
  row(w().queue, String(b.queue));
  row(w().refusedShort, String(b.refused));
  row(w().lastLabel, b.lastLabel ? `${b.lastLabel.trackingNumber} · ${time(b.lastLabel.at)}` : w().none);
  card.append(h, dl);
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
  list(w().offline, a.offline.map((o) => el('li', `${o.bench}: ${fill(w().offlineSince, { t: time(o.since) })}`)));
  list(w().printers, a.printers.map((p) => el('li', `${p.bench}: ${printerState(p.state)}`)));
  list(w().refusedRequests, a.refused.map((r) => el('li', fill(w().refusedLine, { bench: r.bench, n: r.refused }))));
  list(w().labelsHeld, a.labelsHeld.map((h) => el('li', fill(w().labelsHeldLine, { bench: h.bench, n: h.held }))));
  list(w().verifyMismatches, a.verifyMismatches.map((v) => el('li', `${time(v.at)} ${v.bench}${v.packer ? fill(w().by, { p: v.packer }) : ''}: ${v.subject ?? ''}`)));
  list(
    w().oldClaims,
    a.oldClaims.map((c) => {
      const li = el('li', fill(w().claimLine, { order: c.orderKey, bench: c.bench, packer: c.packer ? fill(w().by, { p: c.packer }) : '', m: c.minutes }));
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

/** Puts every word of the page in the current language and draws the floor. */
function render(): void {
  document.documentElement.lang = language;
  document.title = w().title;
  $('title').textContent = w().title;
  for (const l of ['it', 'en'] as const) $(`lang-${l}`).setAttribute('aria-pressed', String(l === language));
  $('lang-group').setAttribute('aria-label', language === 'it' ? 'Lingua' : 'Language');
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
  const day = $<HTMLInputElement>('day').value;
  $<HTMLAnchorElement>('report-csv').href = `api/report.csv?day=${encodeURIComponent(day)}&lang=${language}`;
  $<HTMLAnchorElement>('report-pdf').href = `api/report.pdf?day=${encodeURIComponent(day)}&lang=${language}`;
  if (!floor) return;
  $('clock').textContent = time(floor.at);
  const stale = Date.now() - lastRead > 5000;
  $('stale').hidden = !stale;
  $('stale').textContent = stale ? fill(w().stale, { t: time(floor.at) }) : '';
  $('benches').replaceChildren(...floor.benches.map(benchCard));
  $('attention').replaceChildren(attentionList(floor));
  const hours = chartHours(floor);
  drawChart('chart-benches', w().perBench, floor.perHour.benches, hours);
  drawChart('chart-packers', w().perPacker, floor.perHour.packers, hours);
}

async function release(orderKey: string): Promise<void> {
  const res = await api<{ released?: { orderKey: string } }>('api/claims/release', { orderKey });
  notice = res.status === 200 ? fill(w().released, { order: orderKey }) : '';
  await poll();
}

let signedIn = false;

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
      floor = res.data;
      lastRead = Date.now();
      if ($<HTMLInputElement>('day').value === '') $<HTMLInputElement>('day').value = floor.day;
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
    supervisorName = '';
    showSignIn(true);
  });
});
for (const l of ['it', 'en'] as const) {
  $(`lang-${l}`).addEventListener('click', () => {
    language = l;
    localStorage.setItem('warehouse.language', l);
    render();
  });
}
$('day').addEventListener('change', render);
window.addEventListener('resize', () => charts.forEach((c) => c.resize()));
setInterval(() => {
  if (signedIn) void poll();
}, 1000);
void start();
