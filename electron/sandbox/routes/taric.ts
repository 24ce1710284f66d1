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
 * - otherwise the words of `q`, in any order, each must start a word of the
 *   row: its Italian or English description or the everyday names of its code,
 *   heading or chapter (taric-words.ts: "scarpe" finds footwear). Singular and plural are one
 *   word in both languages ("tazze" = "tazza", "vasi" = "vaso", "cups" =
 *   "cup", "boxes" = "box"); short joining words ("in", "di", "of", "and",
 *   ...) are ignored unless they are the whole query; a word made of digits
 *   may also start the code. So "vaso in ceramica" finds 6912 and 6913.
 *   The word rules are shared/domain/search-words.ts.
 */
import { TaricQuery, type TaricCode } from '../../../shared/platform/lookups';
import { parseOrThrow } from '../errors';
import { queryString, type ApiRouter } from '../http';
import { TARIC_ROWS } from '../taric-data';
import { TARIC_WORDS } from '../taric-words';
import { hasWord, queryWords, searchableWords } from '../../../shared/domain/search-words';

interface IndexedRow {
  entry: TaricCode;
  /** Folded words and their stems. */
  words: string[];
}

let index: IndexedRow[] | undefined;

/** The table with its folded words (description, English description, everyday names of its code, heading and chapter), built once on first use. */
function indexed(): IndexedRow[] {
  index ??= TARIC_ROWS.map(([code, description, descriptionEn]) => {
    const everyday = [code.slice(0, 2), code.slice(0, 4), code.slice(0, 6)].filter((c, i, all) => c.length <= code.length && all.indexOf(c) === i);
    const names = everyday.map((c) => TARIC_WORDS[c] ?? '').join(' ');
    return { entry: { code, description, descriptionEn }, words: searchableWords(`${description} ${descriptionEn} ${names}`) };
  });
  return index;
}

/** Whether a query word starts one of the row's words (as typed or as its stem), or, made of digits, its code. */
function rowHas(row: IndexedRow, token: string): boolean {
  return hasWord(row.words, token) || (/^\d+$/.test(token) && row.entry.code.startsWith(token));
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
    const tokens = queryWords(q);
    hits = tokens.length === 0 ? [] : rows.filter((r) => tokens.every((t) => rowHas(r, t)));
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
