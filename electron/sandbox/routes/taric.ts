/**
 * Customs codes (spec: Endpoints > Customs codes; Limits: `q` min 3 chars,
 * `limit` default 25, max 100): `GET /taric?q=&limit=` searches the sandbox's
 * subset of the EU Combined Nomenclature (taric-data.ts) and answers
 * `{data: [{code, description, descriptionEn}]}` in code order.
 *
 * Matching (case- and accent-insensitive):
 * - `q` made only of digits (spaces and dots ignored, "6109.10" = "610910"):
 *   codes starting with those digits; when none does (a longer code than the
 *   table has, e.g. a 10-digit TARIC code), its known 8/6/4/2-digit levels;
 * - otherwise every word of `q` must start a word of the Italian or English
 *   description ("borse pelle", "t-shirt cotton", "orolog"); a word made of
 *   digits may also start the code.
 */
import { TaricQuery, type TaricCode } from '../../../shared/platform/lookups';
import { parseOrThrow } from '../errors';
import { queryString, type ApiRouter } from '../http';
import { TARIC_ROWS } from '../taric-data';

/** Lower case, accents removed, anything but letters and digits turned into spaces. */
function foldText(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

interface IndexedRow {
  entry: TaricCode;
  words: string[];
}

let index: IndexedRow[] | undefined;

/** The table with its folded words, built once on first use. */
function indexed(): IndexedRow[] {
  index ??= TARIC_ROWS.map(([code, description, descriptionEn]) => ({
    entry: { code, description, descriptionEn },
    words: [...new Set(foldText(`${description} ${descriptionEn}`).split(' '))],
  }));
  return index;
}

/**
 * Searches the customs codes; see the module comment for the rules.
 * @param q search text, already trimmed (at least 3 characters)
 * @param limit most results (1..100)
 * @returns matching codes in code order, at most `limit`
 */
function searchTaric(q: string, limit: number): TaricCode[] {
  const rows = indexed();
  const digits = q.replace(/[\s.]/g, '');
  let hits: IndexedRow[];
  if (/^\d+$/.test(digits)) {
    hits = rows.filter((r) => r.entry.code.startsWith(digits));
    // A longer code than the table knows (e.g. a 10-digit TARIC code): its known levels.
    if (hits.length === 0) hits = rows.filter((r) => digits.startsWith(r.entry.code));
  } else {
    const tokens = foldText(q).split(' ').filter((t) => t !== '');
    hits = tokens.length === 0 ? [] : rows.filter((r) => tokens.every((t) => r.words.some((w) => w.startsWith(t)) || (/^\d+$/.test(t) && r.entry.code.startsWith(t))));
  }
  return hits.slice(0, limit).map((r) => ({ ...r.entry }));
}

/** Registers GET /taric. */
export function registerTaricRoutes(r: ApiRouter): void {
  r.get('/taric', ({ query }) => {
    const q = parseOrThrow(TaricQuery, {
      q: queryString(query, 'q'),
      ...(query.limit !== undefined ? { limit: queryString(query, 'limit') } : {}),
    });
    return { body: { data: searchTaric(q.q, q.limit) } };
  });
}
