import { describe, expect, it } from 'vitest';
import { mergeThreadCpu, splitThreadCpu, threadCpuMs } from '../../bench/thread-cpu';

describe('bench thread CPU', () => {
  it('reads this process\'s threads, the main one among them, in whole ticks of 10 ms', () => {
    const t = threadCpuMs();
    if (process.platform !== 'linux') {
      expect(t.size).toBe(0);
      return;
    }
    expect(t.has(process.pid)).toBe(true);
    for (const ms of t.values()) expect(ms % 10).toBe(0);
  });

  it('keeps the last reading of a thread that has ended', () => {
    const seen = new Map([[1, 100], [2, 50]]);
    mergeThreadCpu(seen, new Map([[1, 140]]));
    expect(seen).toEqual(new Map([[1, 140], [2, 50]]));
  });

  it('splits the CPU between the main thread, the busiest new thread and the others', () => {
    const before = new Map([[10, 1000], [11, 200]]);
    const after = new Map([[10, 1600], [11, 260], [20, 30], [21, 550], [22, 20]]);
    // 21 is the new thread that worked most; 20 and 22 (new but smaller) count with 11's 60 ms as others.
    expect(splitThreadCpu(before, after, 10)).toEqual({ main: 600, newThread: 550, others: 110 });
  });
});
