/**
 * The page's labels-ahead panels (issue 43 items 3–5), drawn from `GET /api/ahead` (electron/warehouse/ahead-routes.ts):
 * - the settings (on/off, which rules, how far ahead, headroom, face down), saved with `PUT /api/ahead/settings`;
 *   a refusal is said with the field the server named;
 * - a batch print: which labels (single-item orders, a SKU, a shop, all) at which live bench, `POST /api/batches`,
 *   then the batches with their state and pick list (PDF, in the page's language);
 * - the day's close for the warehouse, `POST /api/day/close` after a confirmation, and the last close in sentences.
 * The forms are built once per language (and when what they offer changes), never under the supervisor's hands:
 * the page polls every second. Every word from ./ahead-words.ts; every text by `textContent`.
 */
import type { AheadAnswer, CloseResult } from '../ahead-types';
import type { AheadSettings } from '../ahead-settings';
import type { BatchSelection } from '../batch';
import { AHEAD_WORDS, closeSaid, type AheadWords } from './ahead-words';
import { fill, type Language } from './words';

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (className) e.className = className;
  return e;
}

/** A labelled input (`input` has an id: its label names it, and only it). */
function field(label: string, input: HTMLElement, after?: string): HTMLDivElement {
  const row = el('div', undefined, 'field');
  const l = el('label', label);
  l.htmlFor = input.id;
  row.append(l, input);
  if (after) row.append(el('span', after, 'muted'));
  return row;
}

function radio(name: string, value: string, checked: boolean, label: string, onChange: () => void): HTMLLabelElement {
  const input = el('input');
  input.type = 'radio';
  input.name = name;
  input.value = value;
  input.checked = checked;
  input.addEventListener('change', onChange);
  const l = el('label', undefined, 'choice');
  l.append(input, el('span', label));
  return l;
}

function checkbox(id: string, checked: boolean, label: string, onChange: (on: boolean) => void): HTMLLabelElement {
  const input = el('input');
  input.type = 'checkbox';
  input.id = id;
  input.checked = checked;
  input.addEventListener('change', () => onChange(input.checked));
  const l = el('label', undefined, 'choice');
  l.append(input, el('span', label));
  return l;
}

async function send<T>(method: 'PUT' | 'POST', path: string, body: unknown): Promise<{ status: number; data: T }> {
  const res = await fetch(path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, data: (await res.json().catch(() => null)) as T };
}

type Refusal = { error?: { message?: string; field?: string } } | null;

/** The panels' hosts in the page. */
export interface AheadHosts {
  settings: HTMLElement;
  batch: HTMLElement;
  close: HTMLElement;
}

/** Builds the panels; `render` draws them from the last answer, `changed` asks the page to read it again. */
export function createAheadPanels(hosts: AheadHosts, changed: () => void): { render(answer: AheadAnswer | null, language: Language, when: (iso: string) => string): void } {
  let settings: AheadSettings | null = null;
  let dirty = false;
  /** What the last save said (drawn in the page's language of the moment). */
  let settingsNotice: { kind: 'saved' } | { kind: 'refused'; field: string; message: string } | null = null;
  let settingsKey = '';
  const batch: { kind: BatchSelection['kind']; value: string; benchId: string } = { kind: 'single', value: '', benchId: '' };
  let batchNotice: { kind: 'made'; id: number; n: number; bench: string } | { kind: 'refused'; code: string; message: string } | null = null;
  let batchKey = '';
  let closeState: 'idle' | 'confirm' | 'busy' = 'idle';
  let closeKey = '';
  let closeError = '';
  let last: { answer: AheadAnswer; language: Language; when: (iso: string) => string } | null = null;
  const again = () => last && draw(last.answer, last.language, last.when, true);

  function settingsForm(a: AheadAnswer, w: AheadWords): HTMLElement[] {
    const s = settings!;
    // The form's own object becomes the settings being edited (a poll may have replaced `settings` since the form was built).
    const edit = () => {
      settings = s;
      dirty = true;
      settingsNotice = null;
    };
    const form = el('form', undefined, 'ahead-settings');
    // The server checks every field and says which is wrong, in the page's words.
    form.noValidate = true;
    form.append(checkbox('ahead-enabled', s.enabled, w.enabled, (on) => ((s.enabled = on), edit())));
    const rules = el('fieldset');
    rules.append(el('legend', w.rules));
    rules.append(radio('ahead-rules', 'all', s.rules === null, w.rulesAll, () => ((s.rules = null), edit(), again())));
    rules.append(radio('ahead-rules', 'chosen', s.rules !== null, w.rulesChosen, () => ((s.rules = []), edit(), again())));
    if (s.rules !== null) {
      const chosen = s.rules;
      if (!a.rules.length) rules.append(el('p', w.noRules, 'muted'));
      for (const r of a.rules) {
        const box = checkbox(`ahead-rule-${r.name}`, chosen.includes(r.name), r.shipByItself ? `${r.name} (${w.shipsByItself})` : r.name, (on) => {
          s.rules = on ? [...chosen.filter((n) => n !== r.name), r.name] : chosen.filter((n) => n !== r.name);
          edit();
          again();
        });
        box.classList.add('rule');
        rules.append(box);
      }
    }
    const horizon = el('fieldset');
    horizon.append(el('legend', w.horizon));
    horizon.append(radio('ahead-horizon', 'today', s.horizonHours === null, w.horizonToday, () => ((s.horizonHours = null), edit(), again())));
    const hours = el('input');
    hours.type = 'number';
    hours.id = 'ahead-hours';
    hours.min = '1';
    hours.max = '720';
    hours.value = String(s.horizonHours ?? 24);
    hours.disabled = s.horizonHours === null;
    hours.setAttribute('aria-label', `${w.horizonHours} … ${w.hours}`);
    hours.addEventListener('input', () => ((s.horizonHours = Number(hours.value)), edit()));
    const hoursRow = radio('ahead-horizon', 'hours', s.horizonHours !== null, w.horizonHours, () => ((s.horizonHours = Number(hours.value) || 24), edit(), again()));
    hoursRow.append(hours, el('span', w.hours));
    horizon.append(hoursRow);
    const headroom = el('input');
    headroom.type = 'number';
    headroom.id = 'ahead-headroom';
    headroom.min = '0';
    headroom.max = '29';
    headroom.value = String(s.headroom);
    headroom.addEventListener('input', () => ((s.headroom = Number(headroom.value)), edit()));
    const save = el('button', w.save);
    save.type = 'submit';
    save.id = 'ahead-save';
    const said = !settingsNotice ? '' : settingsNotice.kind === 'saved' ? w.saved : fill(w.refused, { message: w.fieldRefused[settingsNotice.field] ?? settingsNotice.message });
    const notice = el('p', said, settingsNotice?.kind === 'refused' ? 'error' : 'muted');
    notice.setAttribute('role', 'status');
    notice.id = 'ahead-settings-notice';
    form.append(rules, horizon, field(w.headroom, headroom, w.headroomHint), checkbox('ahead-face-down', s.faceDown, w.faceDown, (on) => ((s.faceDown = on), edit())), save, notice);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      void (async () => {
        const r = await send<{ settings?: AheadSettings } & Refusal>('PUT', 'api/ahead/settings', s);
        if (r.status === 200 && r.data?.settings) {
          settings = r.data.settings;
          // The answer drawn until the next read holds what was saved (no flicker back to the old settings).
          if (last) last.answer = { ...last.answer, settings: r.data.settings };
          dirty = false;
          settingsNotice = { kind: 'saved' };
        } else settingsNotice = { kind: 'refused', field: r.data?.error?.field ?? '', message: r.data?.error?.message ?? String(r.status) };
        again();
        changed();
      })();
    });
    return [form];
  }

  function batchForm(a: AheadAnswer, w: AheadWords, language: Language, when: (iso: string) => string): HTMLElement[] {
    const form = el('form', undefined, 'batch-form');
    form.append(el('p', fill(a.waiting.total === 1 ? w.waitingLineOne : w.waitingLine, { n: a.waiting.total, single: a.waiting.single }), 'muted'));
    const kind = el('select');
    kind.id = 'batch-kind';
    for (const k of ['single', 'sku', 'shop', 'all'] as const) kind.append(new Option(w.selectionKind[k], k, false, batch.kind === k));
    kind.addEventListener('change', () => ((batch.kind = kind.value as BatchSelection['kind']), (batch.value = ''), again()));
    form.append(field(w.selection, kind));
    if (batch.kind === 'sku' || batch.kind === 'shop') {
      const values = batch.kind === 'sku' ? a.waiting.skus : a.waiting.shops;
      const value = el('select');
      value.id = 'batch-value';
      if (!values.some((v) => v.value === batch.value)) batch.value = values[0]?.value ?? '';
      for (const v of values) value.append(new Option(`${v.value} (${v.n})`, v.value, false, v.value === batch.value));
      value.addEventListener('change', () => (batch.value = value.value));
      value.disabled = values.length === 0;
      if (!values.length) value.append(new Option(w.noneWaiting, ''));
      form.append(field(w.selectionKind[batch.kind], value));
    }
    const bench = el('select');
    bench.id = 'batch-bench';
    const live = a.benches.filter((b) => b.online);
    if (!live.some((b) => b.id === batch.benchId)) batch.benchId = live[0]?.id ?? '';
    for (const b of a.benches) {
      const o = new Option(b.online ? b.name : fill(w.offlineBench, { name: b.name }), b.id, false, b.id === batch.benchId);
      o.disabled = !b.online;
      bench.append(o);
    }
    bench.addEventListener('change', () => (batch.benchId = bench.value));
    form.append(field(w.bench, bench));
    const print = el('button', w.print);
    print.type = 'submit';
    print.id = 'batch-print';
    print.disabled = live.length === 0 || ((batch.kind === 'sku' || batch.kind === 'shop') && batch.value === '');
    form.append(print);
    if (!live.length) form.append(el('p', w.noBench, 'muted'));
    const n = batchNotice;
    const notice = el('p', !n ? '' : n.kind === 'made' ? fill(w.batchMade, n) : (w.batchRefused[n.code] ?? n.message), n?.kind === 'refused' ? 'batch-notice error' : 'batch-notice');
    notice.setAttribute('role', 'status');
    form.append(notice);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const selection = batch.kind === 'sku' || batch.kind === 'shop' ? { kind: batch.kind, value: batch.value } : { kind: batch.kind };
      void (async () => {
        const r = await send<{ batch?: { id: number; labels: number; bench: string } } & Refusal>('POST', 'api/batches', { benchId: batch.benchId, selection });
        batchNotice =
          r.status === 201 && r.data?.batch
            ? { kind: 'made', id: r.data.batch.id, n: r.data.batch.labels, bench: r.data.batch.bench }
            : { kind: 'refused', code: (r.data?.error as { code?: string } | undefined)?.code ?? '', message: r.data?.error?.message ?? String(r.status) };
        batchKey = '';
        changed();
      })();
    });
    const list = el('div', undefined, 'batches');
    list.append(el('h3', w.batches));
    if (!a.batches.length) list.append(el('p', w.noBatches, 'muted'));
    const ul = el('ul');
    for (const b of a.batches) {
      const sel = b.selection.kind === 'sku' || b.selection.kind === 'shop' ? fill(w.selectionLine[b.selection.kind], { v: b.selection.value }) : w.selectionLine[b.selection.kind];
      const li = el('li', fill(w.batchLine, { id: b.id, selection: sel, bench: b.bench, printed: b.printed, n: b.labels, state: w.batchState[b.state], t: when(b.createdAt) }));
      li.dataset.batch = String(b.id);
      li.dataset.state = b.state;
      const link = el('a', w.pickList);
      link.href = `api/batches/${b.id}/pick-list.pdf?lang=${language}`;
      link.className = 'pick-list';
      li.append(' ', link);
      if (b.error) li.append(el('div', b.error, 'error'));
      ul.append(li);
    }
    list.append(ul);
    return [form, list];
  }

  function closePanel(a: AheadAnswer, w: AheadWords, language: Language, when: (iso: string) => string): HTMLElement[] {
    const out: HTMLElement[] = [el('p', w.closeHint, 'muted')];
    if (!a.platformGiven) out.push(el('p', w.noPlatform, 'error close-no-platform'));
    const row = el('div', undefined, 'close-row');
    const ask = () => {
      const b = el('button', w.closeButton);
      b.type = 'button';
      b.id = 'day-close';
      b.disabled = !a.platformGiven || closeState === 'busy';
      b.addEventListener('click', () => ((closeState = 'confirm'), again()));
      return b;
    };
    if (closeState === 'confirm') {
      const yes = el('button', w.closeButton);
      yes.type = 'button';
      yes.id = 'day-close-confirm';
      const no = el('button', w.closeCancel);
      no.type = 'button';
      no.addEventListener('click', () => ((closeState = 'idle'), again()));
      yes.addEventListener('click', () => void runClose(language));
      row.append(el('span', w.closeConfirm, 'confirm'), yes, no);
    } else row.append(ask());
    if (closeState === 'busy') row.append(el('span', w.closing, 'muted'));
    out.push(row);
    const said = el('div', undefined, 'close-said');
    said.setAttribute('role', 'status');
    said.id = 'close-said';
    if (closeError) said.append(el('p', closeError, 'error'));
    const c: CloseResult | null = a.lastClose;
    if (c) {
      const t = c.packer ? fill(w.closedAt, { t: when(c.closedAt), who: c.packer }) : when(c.closedAt);
      // Asked at a bench with the supervisor's PIN: that bench is named.
      const bench = c.place === 'page' ? null : (a.benches.find((b) => b.id === c.place)?.name ?? c.place);
      said.append(el('h3', fill(w.lastClose, { t: bench ? fill(w.closedAtBench, { t, bench }) : t })));
      const ul = el('ul');
      for (const line of closeSaid(c, language)) ul.append(el('li', line));
      said.append(ul);
    }
    out.push(said);
    return out;
  }

  async function runClose(language: Language): Promise<void> {
    closeState = 'busy';
    closeError = '';
    again();
    const r = await send<{ said?: string[] } & Refusal>('POST', `api/day/close?lang=${language}`, {});
    closeState = 'idle';
    if (r.status !== 200) closeError = r.data?.error?.message ?? String(r.status);
    changed();
  }

  function draw(answer: AheadAnswer, language: Language, when: (iso: string) => string, force = false): void {
    last = { answer, language, when };
    const w = AHEAD_WORDS[language];
    if (!dirty) settings = { ...answer.settings, rules: answer.settings.rules ? [...answer.settings.rules] : null };
    const sKey = JSON.stringify([language, answer.rules, dirty ? null : answer.settings, settingsNotice]);
    if (force || sKey !== settingsKey) {
      settingsKey = sKey;
      hosts.settings.replaceChildren(...settingsForm(answer, w));
    }
    const bKey = JSON.stringify([language, answer.benches, answer.waiting, answer.batches, batchNotice, batch.kind]);
    if (force || bKey !== batchKey) {
      // Not under the supervisor's hands: a select open or focused keeps its form until it is left.
      if (force || !hosts.batch.contains(document.activeElement) || document.activeElement?.tagName === 'BUTTON') {
        batchKey = bKey;
        hosts.batch.replaceChildren(...batchForm(answer, w, language, when));
      }
    }
    const cKey = JSON.stringify([language, answer.lastClose, answer.platformGiven, closeState, closeError]);
    if (force || cKey !== closeKey) {
      closeKey = cKey;
      hosts.close.replaceChildren(...closePanel(answer, w, language, when));
    }
  }

  return {
    render(answer, language, when) {
      if (answer) draw(answer, language, when);
    },
  };
}
