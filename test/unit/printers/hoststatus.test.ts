import { describe, expect, it } from 'vitest';
import { hostStatusFrames, hostStatusToPrinterStatus, parseHostStatus } from '../../../electron/core/printers';
import { hsAnswer, type HsFlags } from './hs-answer';

describe('~HS host status', () => {
  it('finds the three STX...ETX strings, ignoring an unfinished one', () => {
    const a = hsAnswer();
    expect(hostStatusFrames(a)).toHaveLength(3);
    expect(hostStatusFrames(a.slice(0, a.length - 5))).toHaveLength(2);
  });

  it('decodes the flags', () => {
    const hs = parseHostStatus(hostStatusFrames(hsAnswer({ paperOut: true, paused: true, formats: 2, mode: '1' })));
    expect(hs).toMatchObject({ paperOut: true, paused: true, headUp: false, labelLengthDots: 1218, formatsInBuffer: 2, printMode: '1' });
  });

  it('maps flags to states with head open > paper out > fault > paused > ready', () => {
    const st = (o: HsFlags) => hostStatusToPrinterStatus(parseHostStatus(hostStatusFrames(hsAnswer(o))));
    expect(st({})).toEqual({ state: 'ready', detail: 'Ready (tear-off mode)' });
    expect(st({ paperOut: true, paused: true, formats: 1 })).toEqual({ state: 'paper_out', detail: 'Out of paper; Paused (tear-off mode, 1 format waiting)' });
    expect(st({ headUp: true, paperOut: true }).state).toBe('head_open');
    expect(st({ ribbonOut: true, tt: true })).toMatchObject({ state: 'error', detail: expect.stringContaining('Ribbon out') });
    // Ribbon flag in direct thermal mode is no fault.
    expect(st({ ribbonOut: true, tt: false }).state).toBe('ready');
    expect(st({ hot: true }).state).toBe('error');
    expect(st({ paused: true }).state).toBe('paused');
  });

  it('refuses answers that are not ~HS', () => {
    expect(() => parseHostStatus(['hello', 'world', '!'])).toThrow(/not a ~HS answer/);
    expect(() => parseHostStatus([])).toThrow(/not a ~HS answer/);
  });
});
