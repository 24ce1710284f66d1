/**
 * The text-search condition of the order list and search (OrdersRepo.page,
 * OrdersRepo.search): which orders match an FTS5 trigram query, and how many.
 */
import type Database from 'better-sqlite3';
import { MANY_MATCHES, pendingMatch, type Matches } from './orders-rows';

/** SQL function of a text search with many matches: 1 when order `id` is among them. */
export const MATCH_FUNCTION = 'station_text_match';

/** {@link createTextMatches}'s answer: `matches` for each search, `release` once the search has returned. */
interface TextMatches {
  /**
   * The condition for `fts` (an FTS5 query) and `like` (its substring, for
   * orders still waiting for their index row; `all`: also the details
   * fields). Few matches (≤ MANY_MATCHES): `id IN (...)`, looked up one by
   * one. Many: read from the index once, kept until {@link release}, and
   * tested by `station_text_match(id)` while SQLite reads the sort's index in
   * order (the first page is found after a few hundred entries); the count is
   * their number. `count()`: how many orders match, from the index alone.
   */
  matches(fts: string, all: boolean, like: string): Matches;
  /** Drops the matches kept for the search that has just returned. */
  release(): void;
}

/**
 * Text matching on the connection `db` (defines {@link MATCH_FUNCTION} on
 * it). One search at a time: the repository is synchronous, and each search
 * releases its matches when it returns. Reading a many-match search once
 * instead of once for its count and once per statement of its page halved a
 * search over three years of orders (46,461 of 750,000 matching "Lombardi":
 * ≈ 50 → ≈ 28 ms).
 */
export function createTextMatches(db: Database.Database): TextMatches {
  let many: ReadonlySet<number> | null = null;
  db.function(MATCH_FUNCTION, (id: unknown) => (many?.has(Number(id)) ? 1 : 0));
  const countFts = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM orders_fts WHERE orders_fts MATCH ?');
  const manyFts = db.prepare<[string, number], { n: number }>('SELECT count(*) AS n FROM (SELECT rowid FROM orders_fts WHERE orders_fts MATCH ? LIMIT ?)');
  const idsOf = (all: boolean) =>
    db.prepare<{ fts: string; like: string }, number>(`SELECT rowid FROM orders_fts WHERE orders_fts MATCH @fts UNION ${pendingMatch(all)}`).pluck();
  const idsAll = idsOf(true);
  const idsListed = idsOf(false);
  return {
    matches(fts, all, like) {
      if ((manyFts.get(fts, MANY_MATCHES + 1)?.n ?? 0) > MANY_MATCHES) {
        const ids = new Set((all ? idsAll : idsListed).all({ fts, like }));
        many = ids;
        return { clause: `${MATCH_FUNCTION}(id)`, count: () => ids.size };
      }
      const source = `SELECT rowid FROM orders_fts WHERE orders_fts MATCH @fts UNION ${pendingMatch(all)}`;
      return {
        clause: `id IN (${source})`,
        count: () => (countFts.get(fts)?.n ?? 0) + (db.prepare<Record<string, string>, { n: number }>(`SELECT count(*) AS n FROM (${pendingMatch(all)})`).get({ like })?.n ?? 0),
      };
    },
    release() {
      many = null;
    },
  };
}
