/** Words of a goods description (shared/domain/search-words.ts): folding, Italian and English plurals, joining words. */
import { describe, expect, it } from 'vitest';
import { foldText, hasWord, queryWords, searchableWords, wordStem } from '../../../shared/domain/search-words';

describe('search words', () => {
  it('folds case, accents and punctuation', () => {
    expect(foldText('Caffè, TÈ; t-shirt')).toBe('caffe te t shirt');
  });

  it.each([
    ['tazza', 'tazze'],
    ['vaso', 'vasi'],
    ['ceramica', 'ceramiche'],
    ['maglietta', 'magliette'],
    ['scarpa', 'scarpe'],
    ['cup', 'cups'],
    ['box', 'boxes'],
    ['accessory', 'accessories'],
    ['vase', 'vases'],
  ])('gives %s and %s one stem', (one, many) => {
    expect(wordStem(one)).toBe(wordStem(many));
  });

  it('leaves short words and words with digits as they are', () => {
    expect(wordStem('tè')).toBe('tè');
    expect(wordStem('6109')).toBe('6109');
    expect(wordStem('a4s')).toBe('a4s');
  });

  it('leaves joining words out of a query that has other words, in any order', () => {
    expect(queryWords('Vaso in ceramica')).toEqual(['vaso', 'ceramica']);
    expect(queryWords('cups of tea')).toEqual(['cups', 'tea']);
    expect(queryWords('and')).toEqual(['and']);
  });

  it('matches a query word, singular or plural, at the start of a word', () => {
    const words = searchableWords('Tazza in ceramica dipinta a mano');
    expect(hasWord(words, 'tazze')).toBe(true);
    expect(hasWord(words, 'ceramiche')).toBe(true);
    expect(hasWord(words, 'dipint')).toBe(true);
    expect(hasWord(words, 'azza')).toBe(false);
    expect(hasWord(words, 'vaso')).toBe(false);
  });
});
