/**
 * Words of a goods description, for searching by words (HS/customs codes of
 * the platform's GET /taric and of the station's own product data): folded
 * (lower case, accents removed, punctuation as spaces), singular and plural
 * as one stem in Italian and English, joining words left out.
 */

/** Lower case, accents removed, anything but letters and digits turned into spaces: `"Caffè, tè"` -> `"caffe te"`. */
export function foldText(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * One form for a folded word's singular and plural, Italian or English:
 * `tazze`/`tazza` -> `tazz`, `ceramiche`/`ceramica` -> `ceramic`, `vasi`/`vaso`/`vase`/`vases` -> `vas`,
 * `boxes` -> `box`, `accessories` -> `accessor`. Words of 3 letters or fewer, and words with digits, stay as they are.
 */
export function wordStem(word: string): string {
  let w = word;
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (/(ch|sh|ss|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (/[^s]s$/.test(w)) w = w.slice(0, -1);
  if (/[cg]h[ei]$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && /[aeioy]$/.test(w)) w = w.slice(0, -1);
  return w;
}

/** Joining words of both languages, left out of a query that has other words. */
const JOINING_WORDS = new Set(['a', 'al', 'alla', 'and', 'con', 'da', 'dei', 'del', 'della', 'delle', 'di', 'e', 'for', 'gli', 'i', 'il', 'in', 'la', 'le', 'lo', 'of', 'or', 'o', 'per', 'the', 'un', 'una', 'with']);

/** The words a query is matched by: folded, joining words left out unless they are all it has (`"vaso in ceramica"` -> `["vaso", "ceramica"]`). */
export function queryWords(q: string): string[] {
  const all = foldText(q).split(' ').filter((w) => w !== '');
  const content = all.filter((w) => !JOINING_WORDS.has(w));
  return content.length > 0 ? content : all;
}

/** The searchable words of a text: each folded word and its stem, once. */
export function searchableWords(text: string): string[] {
  const folded = foldText(text).split(' ').filter((w) => w !== '');
  return [...new Set([...folded, ...folded.map(wordStem)])];
}

/** Whether a query word (folded) starts one of `words` (from {@link searchableWords}), as typed or as its stem. */
export function hasWord(words: readonly string[], token: string): boolean {
  const stem = wordStem(token);
  return words.some((w) => w.startsWith(token) || w.startsWith(stem));
}
