/**
 * Issue 21 item 5, in CI: every command of the contract gets generated inputs
 * (fast-check, fixed seed, bounded count; test/fuzz/harness.ts) on a training
 * station, and none may end in an internal error (what the headless host
 * answers with 500) or keep the caller waiting. The time bound here is wide,
 * for a busy CI machine: a call that waited for a rate window or retried a
 * carrier's refusal took a minute; `npm run fuzz` holds every call under 1 s.
 */
import { describe, expect, it } from 'vitest';
import { inputShape, runFuzz } from '../../fuzz/harness';

describe('fuzz: every command, generated inputs', () => {
  it('answers every input with a result or a station error, never an internal error, never after a long wait', async () => {
    const report = await runFuzz({ seed: 21_2026, perCommand: 40 });
    expect(report.commands).toBeGreaterThanOrEqual(68);
    expect(report.inputs).toBe(report.commands * 40);
    expect(report.findings.filter((f) => f.answer.startsWith('internal_error') || f.answer.startsWith('not a StationError'))).toEqual([]);
    expect(report.internalErrors).toBe(0);
    expect(report.findings.filter((f) => f.ms > 8000)).toEqual([]);
    // The JSON line of `npm run fuzz` names the slowest call (issue 45).
    expect(report.slowest).toEqual({ command: expect.any(String), ms: Math.round(report.maxMs), shape: expect.any(String) });
    expect(Object.keys(report.maxMsByCommand)).toHaveLength(report.commands);
  }, 240_000);

  it("names an input's shape without its text: keys, types, lengths", () => {
    expect(inputShape({ orderIds: ['a', 'bb'], force: true, note: null, n: 3 })).toBe('{orderIds:array(2)<string(1)|string(2)>,force:boolean,note:null,n:number}');
    expect(inputShape(null)).toBe('null');
    expect(inputShape({ a: { b: { c: { d: 1 } } } })).toBe('{a:{b:{c:{…}}}}');
    expect(inputShape({ x: 1e308 })).toBe('{x:number(1e+308)}');
    expect(inputShape({ s: 'x'.repeat(5000), list: Array.from({ length: 300 }, (_, i) => ({ [`k${i}`]: i })) }).length).toBeLessThanOrEqual(200);
  });
});
