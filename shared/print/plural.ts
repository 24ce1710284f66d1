/** The languages the station's printed documents are drawn in. */
export type PrintLanguage = 'it' | 'en';

const RULES: Record<PrintLanguage, Intl.PluralRules> = { it: new Intl.PluralRules('it'), en: new Intl.PluralRules('en') };

/**
 * `n` with its noun in the language's plural form (CLDR rules through
 * `Intl.PluralRules`): `1 riga`, `2 righe`, `1 parcel`, `3 parcels`. Used by
 * packing slips and the sandbox's manifest.
 */
export function countedNoun(lang: PrintLanguage, n: number, one: string, other: string): string {
  return `${n} ${RULES[lang].select(n) === 'one' ? one : other}`;
}
