/** Dates typed at the bench (renderer/src/components/DateField.tsx): dd/mm/yyyy in, ISO out. */
import { describe, expect, it } from 'vitest';
import { parseBenchDate, showBenchDate } from '../../../renderer/src/components/DateField';

describe('bench dates', () => {
  it('reads dd/mm/yyyy (also with . or -, one-digit day and month) and a pasted ISO date', () => {
    expect(parseBenchDate('26/11/2026')).toBe('2026-11-26');
    expect(parseBenchDate(' 3.2.2027 ')).toBe('2027-02-03');
    expect(parseBenchDate('03-02-2027')).toBe('2027-02-03');
    expect(parseBenchDate('2026-11-26')).toBe('2026-11-26');
  });

  it('refuses what is not a calendar date, and the US order when it cannot be a day', () => {
    expect(parseBenchDate('31/02/2027')).toBeNull();
    expect(parseBenchDate('11/26/2026')).toBeNull(); // month 26
    expect(parseBenchDate('26/11/26')).toBeNull();
    expect(parseBenchDate('')).toBeNull();
    expect(parseBenchDate('domani')).toBeNull();
  });

  it('shows an ISO date as dd/mm/yyyy and anything else as typed', () => {
    expect(showBenchDate('2026-11-26')).toBe('26/11/2026');
    expect(showBenchDate('26/11')).toBe('26/11');
    expect(showBenchDate('')).toBe('');
  });
});
