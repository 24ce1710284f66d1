// The domain order of electron/core (ARCHITECTURE.md "Domains of the core"):
// each domain folder and the folders it may import. Read by eslint.config.js
// (an import outside its row fails lint) and by build/check-domains.mjs (the
// table and the imports as written have no cycle). A new edge is a decision:
// add it here, and it must keep the order: a domain never lists a domain that
// lists it, directly or through others.
//
// Bottom to top: platform and store use nothing; common (context, service
// interfaces, change emitter, errors, the command door) uses only them; each
// domain above uses only domains below it. Where a lower domain needs a higher
// one's work, the higher one passes a function in (printing/labels.ts
// `FindLocalShipment`) or the composition root wires it (electron/core
// commands.ts, executors.ts, station.ts: files at the core's root are not
// domains and may use any).

/** Domain folder of electron/core -> the domain folders it may import. */
export const CORE_DOMAINS = {
  platform: [],
  store: [],
  common: ['platform', 'store'],
  account: ['common', 'platform', 'store'],
  outbox: ['account', 'common', 'platform', 'store'],
  storage: ['account', 'common', 'store'],
  packers: ['common', 'store'],
  packing: ['common', 'store'],
  products: ['common', 'store'],
  scales: ['common', 'store'],
  rules: ['common', 'products', 'store'],
  printing: ['account', 'common', 'store'],
  orders: ['account', 'common', 'outbox', 'platform', 'store'],
  shipping: ['account', 'common', 'orders', 'outbox', 'packing', 'platform', 'printing', 'products', 'rules', 'store'],
  pickups: ['account', 'common', 'outbox', 'platform', 'store'],
  manifests: ['account', 'common', 'outbox', 'platform', 'store'],
  stocks: ['account', 'common', 'outbox', 'platform', 'store'],
  scan: ['common', 'orders', 'platform', 'shipping', 'store'],
  slips: ['common', 'printing', 'shipping', 'store'],
  reports: ['common', 'printing', 'store'],
  // The warehouse database (issue 35): claims, shared settings, orders, activity; it uses pg and reaches the domains through common/services.ts.
  // platform: it keeps the account's per-minute limits for every bench (issue 43), the platform client's SharedRateBudget.
  warehouse: ['common', 'platform', 'store'],
};

/**
 * A cycle of `graph` (domain -> domains it uses) as a path `[a, b, …, a]`, or
 * null when there is none. Depth-first search; `graph` values name domains.
 */
export function findCycle(graph) {
  const state = new Map(); // domain -> 'open' | 'done'
  const stack = [];
  const visit = (d) => {
    state.set(d, 'open');
    stack.push(d);
    for (const next of graph[d] ?? []) {
      if (state.get(next) === 'open') return [...stack.slice(stack.indexOf(next)), next];
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(d, 'done');
    return null;
  };
  for (const d of Object.keys(graph).sort()) {
    if (state.has(d)) continue;
    const found = visit(d);
    if (found) return found;
  }
  return null;
}

/**
 * The domain order as a mermaid flowchart (`flowchart BT`, an arrow from a domain to each domain it
 * uses), without the arrows another path already implies (transitive reduction), so the picture in
 * ARCHITECTURE.md stays readable; a unit test keeps that picture equal to this one.
 */
export function mermaidGraph(graph) {
  const reach = (from, skip) => {
    const seen = new Set();
    const todo = (graph[from] ?? []).filter((d) => d !== skip);
    while (todo.length) {
      const d = todo.pop();
      if (seen.has(d)) continue;
      seen.add(d);
      todo.push(...(graph[d] ?? []));
    }
    return seen;
  };
  const lines = ['flowchart BT'];
  for (const d of Object.keys(graph)) {
    const direct = (graph[d] ?? []).filter((to) => !reach(d, to).has(to));
    if (direct.length === 0 && !Object.values(graph).some((used) => used.includes(d))) lines.push(`  ${d}`);
    for (const to of [...direct].sort()) lines.push(`  ${d} --> ${to}`);
  }
  return lines.join('\n');
}
