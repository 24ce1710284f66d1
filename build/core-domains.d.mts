/** Types of build/core-domains.mjs (plain JS so that eslint.config.js can import it). */

/** Domain folder of electron/core -> the domain folders it may import. */
export declare const CORE_DOMAINS: Readonly<Record<string, readonly string[]>>;

/** A cycle of `graph` (domain -> domains it uses) as a path `[a, b, …, a]`, or null when there is none. */
export declare function findCycle(graph: Readonly<Record<string, readonly string[]>>): string[] | null;

/** The domain order as a mermaid flowchart, arrows another path implies left out. */
export declare function mermaidGraph(graph: Readonly<Record<string, readonly string[]>>): string;
