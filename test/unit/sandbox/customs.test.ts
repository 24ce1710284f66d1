import { describe, expect, it } from 'vitest';
import { EU_COUNTRIES, customsStatus, requiresCustoms, specialTerritoryOf } from '../../../shared/domain/customs';

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
});
