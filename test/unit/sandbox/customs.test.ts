import { describe, expect, it } from 'vitest';
import { EU_COUNTRIES, SPECIAL_TERRITORY_RULES, customsStatus, foldPlace, requiresCustoms, specialTerritoryOf } from '../../../shared/domain/customs';
import { zoneOf } from '../../../electron/sandbox/zones';

describe('EU customs territory rule (shared/domain/customs)', () => {
  it('knows the 27 member states', () => {
    expect(EU_COUNTRIES.size).toBe(27);
    expect(EU_COUNTRIES.has('GR')).toBe(true);
    expect(EU_COUNTRIES.has('GB')).toBe(false);
  });

  it.each([
    ['IT', '20123'],
    ['it', '00184'],
    ['IT', '23030'], // Valdidentro, next to Livigno
    ['ES', '28001'],
    ['ES', '53001'],
    ['DE', '10115'],
    ['DE', '27499'],
    ['FI', '00100'],
    ['FR', '75001'],
  ])('%s %s is inside', (cc, pc) => {
    expect(requiresCustoms(cc, pc)).toBe(false);
  });

  it.each([
    ['ES', '35001', 'canary_islands'],
    ['ES', '38001', 'canary_islands'],
    ['ES', '35 010', 'canary_islands'],
    ['IC', '35001', 'canary_islands'],
    ['ES', '51001', 'ceuta'],
    ['ES', '52001', 'melilla'],
    ['EA', '52005', 'melilla'],
    ['IT', '23041', 'livigno'],
    ['DE', '27498', 'helgoland'],
    ['FI', '22100', 'aland'],
    ['AX', 'AX-22100', 'aland'],
  ])('%s %s is the special territory %s, outside', (cc, pc, territory) => {
    expect(specialTerritoryOf(cc, pc)).toBe(territory);
    const s = customsStatus(cc, pc);
    expect(s.required).toBe(true);
    expect(s.territory).toBe(territory);
    expect(s.reason).toMatch(/outside the EU customs territory/);
  });

  it.each(['CH', 'GB', 'NO', 'US', 'SM', 'VA', 'TR'])('%s (non-EU) needs a declaration', (cc) => {
    expect(customsStatus(cc, '1000')).toMatchObject({ required: true, reason: `${cc} is outside the EU customs territory` });
  });

  describe('shared postal codes decide by place name (IT 23030)', () => {
    it.each([
      ['Trepalle', 'livigno'],
      ['TREPALLE', 'livigno'],
      ['Trepalle di Livigno', 'livigno'],
      ['Livigno', 'livigno'],
      ['livigno (SO)', 'livigno'],
    ])('23030 %s is Livigno, outside', (city, territory) => {
      expect(specialTerritoryOf('IT', '23030', city)).toBe(territory);
      expect(customsStatus('IT', '23030', city)).toMatchObject({ required: true, territory: 'livigno' });
      expect(zoneOf('IT', '23030', 'SO', city)).toBe('europe_non_eu');
    });

    it.each(['Valdidentro', 'Isolaccia', 'Valdisotto', 'Sondalo', 'Livignasco'])('23030 %s is inside', (city) => {
      expect(specialTerritoryOf('IT', '23030', city)).toBeUndefined();
      expect(requiresCustoms('IT', '23030', city)).toBe(false);
      expect(zoneOf('IT', '23030', 'SO', city)).toBe('italy');
    });

    it('23030 without a city counts as inside (the city decides)', () => {
      expect(requiresCustoms('IT', '23030')).toBe(false);
    });

    it('23041 is Livigno whatever the city says', () => {
      expect(specialTerritoryOf('IT', '23041', 'Livigno')).toBe('livigno');
      expect(specialTerritoryOf('IT', '23041', '')).toBe('livigno');
    });
  });

  it.each([
    ['ES', '3500'], // 4 digits: not a Spanish postal code of province 35
    ['ES', '380010'],
    ['FI', '2210'],
    ['DE', '27497'],
    ['IT', '23040'],
  ])('%s %s (near miss) is not a special territory', (cc, pc) => {
    expect(specialTerritoryOf(cc, pc)).toBeUndefined();
  });

  it('every rule names its source and a known territory', () => {
    for (const r of SPECIAL_TERRITORY_RULES) {
      expect(r.source.length).toBeGreaterThan(3);
      expect(['canary_islands', 'ceuta', 'melilla', 'livigno', 'helgoland', 'aland']).toContain(r.territory);
    }
  });

  it('folds place names (accents, case, punctuation)', () => {
    expect(foldPlace('Åland')).toBe('aland');
    expect(foldPlace(' Trepalle (SO) ')).toBe('trepalle so');
  });

  it('EA 51xxx is Ceuta', () => {
    expect(specialTerritoryOf('EA', '51001')).toBe('ceuta');
  });
});
