/**
 * `rules.*` commands (issue 24 items 1-2): the station's shipping rules, kept
 * as one document (setting `rules.document`, the file shape of
 * shared/contract/rules.ts), edited here or followed from a shared file;
 * `rules.test` says which rule acts on an order and why.
 */
import type { Handlers } from '../../../shared/contract/commands';
import { StationError } from '../../../shared/contract/errors';
import { RulesFile, type Rule, type RulesTestView, type RulesView } from '../../../shared/contract/rules';
import type { StationOrder } from '../../../shared/domain/order';
import type { StationContext } from '../common/context';
import { sharedKey } from '../common/services';
import { createFileFollower, followSetting, type FileFollower } from '../common/follow-file';
import { orderWeight } from '../products/weight';
import { defineSetting, type Store } from '../store';
import { decide, type RuleFacts } from './engine';
import { parseRulesFile, rulesFileText } from './file';

/** Setting `rules.document`: the rules in use, `{version: 1, rules}`. */
const RulesDocumentSetting = defineSetting<RulesFile>('rules.document', RulesFile, { version: 1, rules: [] });
/** Setting `rules.follow`: the shared rules file and the version running. */
const RulesFollowSetting = followSetting('rules.follow');

const followers = new WeakMap<Store, FileFollower>();

/** The parsed rules document per store: every write goes through {@link saveRules}, which forgets it. */
const parsed = new WeakMap<Store, RulesFile>();

/** The rules in use, in order (parsed once per change, not per order). */
function currentRules(store: Store): Rule[] {
  let doc = parsed.get(store);
  if (!doc) {
    doc = store.settings.get(RulesDocumentSetting);
    parsed.set(store, doc);
  }
  return doc.rules;
}

/**
 * The decision of the rules for an order, with the weight it was taken on
 * (`weightKg` given, else product data, else unknown) and the parcel count.
 */
export function decideFor(store: Store, order: StationOrder, weightKg: number | undefined, parcels = 1): RulesTestView {
  const weight = weightKg ?? orderWeight(store, order).weightKg;
  const facts: RuleFacts = { order, weightKg: weight, parcels };
  return { ...decide(currentRules(store), facts), weightKg: weight };
}

/** Keeps `file` as the rules in use at this bench and says so to the screens. */
function keepRules(ctx: Pick<StationContext, 'store' | 'events'>, file: RulesFile): void {
  parsed.delete(ctx.store);
  ctx.store.settings.set(RulesDocumentSetting, file);
  ctx.events.emit('rules.changed', { count: file.rules.length });
}

/**
 * Saves the rules: the warehouse's first when the bench has one (every bench gets them), then this bench's.
 * @param mode 'check' for an edit (refused when another bench changed the rules first), 'force' for an import
 * @throws StationError `warehouse_offline`, `changed_elsewhere` (common/services.ts WarehouseLink.share); nothing is changed then
 */
async function saveRules(ctx: Pick<StationContext, 'store' | 'events' | 'warehouse'>, file: RulesFile, mode: 'check' | 'force'): Promise<void> {
  await ctx.warehouse.share([{ key: sharedKey.setting(RulesDocumentSetting.key), value: file }], mode);
  keepRules(ctx, file);
}

/** The rules came from the warehouse (another bench changed them): forget the parsed copy and tell the screens. */
export function rulesChangedElsewhere(ctx: Pick<StationContext, 'store' | 'events'>): void {
  parsed.delete(ctx.store);
  ctx.events.emit('rules.changed', { count: currentRules(ctx.store).length });
}

/** The rules file follower of this station (one per store), built on first use; the station starts its timer. */
export function rulesFollower(ctx: Pick<StationContext, 'store' | 'events' | 'now' | 'warehouse'>): FileFollower {
  let f = followers.get(ctx.store);
  if (!f) {
    f = createFileFollower({
      store: ctx.store,
      setting: RulesFollowSetting,
      now: ctx.now,
      apply: (content) => {
        const file = parseRulesFile(content);
        keepRules(ctx, file);
        // The file's rules are the warehouse's too; while it is offline they stay this bench's until the next read.
        void ctx.warehouse.share([{ key: sharedKey.setting(RulesDocumentSetting.key), value: file }], 'force').catch(() => undefined);
        const revision = (file as Record<string, unknown>).revision;
        return typeof revision === 'string' || typeof revision === 'number' ? { label: `rev ${String(revision)}` } : {};
      },
      onChange: () => ctx.events.emit('rules.changed', { count: currentRules(ctx.store).length }),
    });
    followers.set(ctx.store, f);
  }
  return f;
}

/** Handlers of the `rules` domain. */
export function createRulesHandlers(ctx: StationContext) {
  const { store } = ctx;
  const view = (): RulesView => ({ rules: currentRules(store), source: rulesFollower(ctx).status() });
  /** Edits the list; refused while the rules follow a shared file (the next read would undo the edit). */
  const edit = async (change: (rules: Rule[]) => Rule[], whole?: RulesFile): Promise<RulesView> => {
    const source = rulesFollower(ctx).status();
    if (source.path !== null) {
      throw new StationError('invalid_state', `The rules follow the shared file ${source.path}: change that file, or stop following it first`, { rules: ['Rules follow a shared file'] });
    }
    const doc = whole ?? store.settings.get(RulesDocumentSetting);
    await saveRules(ctx, { ...doc, rules: change([...doc.rules]) }, whole ? 'force' : 'check');
    return view();
  };
  const at = (rules: Rule[], index: number): Rule => {
    const r = rules[index - 1];
    if (!r) throw new StationError('invalid_input', `There is no rule ${index} (${rules.length} rules)`, { index: [`No rule ${index}`] });
    return r;
  };
  return {
    'rules.list': async () => view(),
    'rules.export': async () => ({ content: rulesFileText(store.settings.get(RulesDocumentSetting)) }),
    'rules.import': async ({ content }) => {
      const file = parseRulesFile(content);
      // The whole file is kept, its own fields too (a `revision`, a tool's notes).
      return edit((rules) => rules, file);
    },
    'rules.save': async ({ index, rule }) =>
      edit((rules) => {
        if (index === undefined) return [...rules, rule];
        at(rules, index);
        rules[index - 1] = rule;
        return rules;
      }),
    'rules.move': async ({ index, to }) =>
      edit((rules) => {
        const r = at(rules, index);
        at(rules, to);
        rules.splice(index - 1, 1);
        rules.splice(to - 1, 0, r);
        return rules;
      }),
    'rules.setEnabled': async ({ index, enabled }) =>
      edit((rules) => {
        rules[index - 1] = { ...at(rules, index), enabled };
        return rules;
      }),
    'rules.test': async ({ orderId, weightKg }) => {
      const order = store.orders.getById(orderId);
      if (!order) throw new StationError('not_found_locally', `Order ${orderId} not found`, { orderId: ['No such order at this station'] });
      return decideFor(store, order, weightKg);
    },
    'rules.follow': async ({ path }) => rulesFollower(ctx).setPath(path),
  } satisfies Pick<Handlers, 'rules.list' | 'rules.export' | 'rules.import' | 'rules.save' | 'rules.move' | 'rules.setEnabled' | 'rules.test' | 'rules.follow'>;
}
