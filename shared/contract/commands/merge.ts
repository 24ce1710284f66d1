/**
 * One merge for the maps that are declared per domain and used as one: the
 * contract's commands (./index.ts) and the core's handlers
 * (electron/core/commands.ts). Spreading would let a later domain's entry
 * win without a word; this refuses it.
 */

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/**
 * Merges `groups` (maps keyed by command name, `domain.verb`) into one map
 * holding every entry of every group.
 * @param duplicate the error's message for a name found in two groups
 * @throws Error with `duplicate(name)` when two groups hold the same name
 */
export function mergeDisjoint<G extends ReadonlyArray<Readonly<Record<string, unknown>>>>(duplicate: (name: string) => string, ...groups: G): UnionToIntersection<G[number]> {
  const all: Record<string, unknown> = {};
  for (const group of groups) {
    for (const [name, entry] of Object.entries(group)) {
      if (Object.hasOwn(all, name)) throw new Error(duplicate(name));
      all[name] = entry;
    }
  }
  return all as UnionToIntersection<G[number]>;
}
