import { describe, expect, it } from 'vitest';
import { hostStatusFrames, hostStatusToPrinterStatus, parseExtendedStatus, parseHostStatus, statusFromFrames } from '../../../../../electron/core/printing';
import { hqesAnswer, hsAnswer, type HsFlags } from './hs-answer';

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
    expect(st({})).toEqual({ state: 'ready', detail: 'Ready (tear-off mode)', buffer: { formats: 0, labelsRemaining: 0 } });
    expect(st({ paperOut: true, paused: true, formats: 1 })).toEqual({
      state: 'paper_out',
      detail: 'Out of paper; Paused (tear-off mode, 1 format waiting)',
      buffer: { formats: 1, labelsRemaining: 0 },
    });
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

describe('~HQES extended status', () => {
  it('decodes the error flags of group 1 (media out, ribbon out, head open, cutter, temperatures)', () => {
    const [body = ''] = hostStatusFrames(hqesAnswer(0x5));
    expect(parseExtendedStatus(body)).toMatchObject({ errors: 5, mediaOut: true, headOpen: true, ribbonOut: false, cutterFault: false });
    expect(parseExtendedStatus(hostStatusFrames(hqesAnswer(0x18))[0] ?? '')).toMatchObject({ cutterFault: true, headOverTemperature: true, mediaOut: false });
    expect(parseExtendedStatus(hostStatusFrames(hqesAnswer(0))[0] ?? '')).toMatchObject({ errors: 0, mediaOut: false });
    expect(parseExtendedStatus('030,0,0,1218')).toBeUndefined();
  });

  it('combines ~HQES with ~HS: media out from ~HQES is paper out, a cutter fault is an error', () => {
    const frames = (es: number, hs: HsFlags = {}) => hostStatusFrames(hqesAnswer(es) + hsAnswer(hs));
    expect(statusFromFrames(frames(0x1)).state).toBe('paper_out');
    expect(statusFromFrames(frames(0x4)).state).toBe('head_open');
    expect(statusFromFrames(frames(0x8))).toMatchObject({ state: 'error', detail: expect.stringContaining('Cutter fault') });
    expect(statusFromFrames(frames(0))).toMatchObject({ state: 'ready', buffer: { formats: 0, labelsRemaining: 0 } });
    // A printer that ignores ~HQES: the ~HS strings alone decide.
    expect(statusFromFrames(hostStatusFrames(hsAnswer({ paperOut: true }))).state).toBe('paper_out');
    expect(() => statusFromFrames(hostStatusFrames(hqesAnswer(1)))).toThrow(/not a ~HS answer/);
  });
});
