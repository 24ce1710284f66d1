/** Commands of shipping rules (issue 24 items 1-2; see ./index.ts for the contract as a whole). */
import { z } from 'zod';
import { Rule, type FollowedFileView, type RulesTestView, type RulesView } from '../rules';
import { command, Empty, OrderIdInput } from './define';

/** A rule's place in the list, 1-based. */
const Index = z.number({ error: 'Rule number must be a number' }).int({ error: 'Rule number must be a whole number' }).min(1, { error: 'Rule number starts at 1' }).max(200, { error: 'At most 200 rules' });

/** A weight typed or read from the scale, kg. */
export const WeightKgInput = z.number({ error: 'Weight must be a number of kg' }).min(0.001, { error: 'Weight must be at least 1 g' }).max(1000, { error: 'Weight must be at most 1000 kg' });

/** A shared file's path (a network share), or null to stop following. */
const FollowPath = z.object({ path: z.string().trim().min(1, { error: 'Path is required' }).max(1000, { error: 'Path is at most 1000 characters' }).nullable() }).strict();

/** Commands of shipping rules. */
export const rulesCommands = {
  /** The rules in order and where they come from (this station, or a shared file and the version running). */
  'rules.list': command<RulesView>()(Empty),
  /** The rules as a file: `{version: 1, rules}` JSON. */
  'rules.export': command<{ content: string }>()(Empty),
  /** Replaces every rule with a file's; an invalid file is refused naming the rule's number and field, and the rules in use stay. */
  'rules.import': command<RulesView>()(z.object({ content: z.string() }).strict(), { longText: ['content'] }),
  /** Saves one rule: replaces rule `index` (1-based), or appends when `index` is absent. */
  'rules.save': command<RulesView>()(z.object({ index: Index.optional(), rule: Rule }).strict()),
  /** Moves rule `index` to place `to` (both 1-based); the others keep their order. */
  'rules.move': command<RulesView>()(z.object({ index: Index, to: Index }).strict()),
  /** Turns rule `index` on or off. */
  'rules.setEnabled': command<RulesView>()(z.object({ index: Index, enabled: z.boolean({ error: 'Enabled is true or false' }) }).strict()),
  /** Which rule acts on an order and why, and why each rule before it did not (weight from product data unless given, kg). */
  'rules.test': command<RulesTestView>()(z.object({ orderId: OrderIdInput, weightKg: WeightKgInput.optional() }).strict()),
  /** Follows a shared rules file (read at once, then whenever it changes), or stops (null): the rules stay as last read. */
  'rules.follow': command<FollowedFileView>()(FollowPath),
} as const;

/** Input of `rules.follow` and `products.follow`. */
export { FollowPath };
