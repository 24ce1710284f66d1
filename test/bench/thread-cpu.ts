/**
 * CPU time per thread of this process, for benches that need to know which
 * thread spent it (the import's writer, its reader thread, V8's helpers).
 */
import fs from 'node:fs';

/** Linux's clock tick (USER_HZ), ms: /proc's times are counted in ticks of 10 ms on every Linux the project runs on. */
const TICK_MS = 10;

/**
 * CPU time (user + system) of each thread of this process so far, ms by
 * thread id, from `/proc/self/task/<tid>/stat` (fields utime and stime, in
 * ticks of {@link TICK_MS} ms: a figure is exact to 10 ms). An empty map where
 * there is no /proc (not Linux); a thread that ends while being read is left out.
 */
export function threadCpuMs(): Map<number, number> {
  const out = new Map<number, number>();
  let tids: string[];
  try {
    tids = fs.readdirSync('/proc/self/task');
  } catch {
    return out;
  }
  for (const tid of tids) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    } catch {
      continue;
    }
    // After the command name (in parentheses, may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(Number(tid), (Number(fields[11]) + Number(fields[12])) * TICK_MS);
  }
  return out;
}

/** Keeps, for each thread, the largest of its readings in `into` and `reading` (a thread's last reading before it ended stays). */
export function mergeThreadCpu(into: Map<number, number>, reading: ReadonlyMap<number, number>): void {
  for (const [tid, ms] of reading) into.set(tid, Math.max(ms, into.get(tid) ?? 0));
}

/**
 * Splits the CPU spent between two readings: the main thread (`mainTid`), the
 * busiest thread that `before` did not have (a worker started meanwhile), and
 * all the others (V8's compiler and GC helpers, libuv's pool), ms.
 */
export function splitThreadCpu(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>, mainTid: number): { main: number; newThread: number; others: number } {
  let main = 0;
  let newThread = 0;
  let others = 0;
  for (const [tid, ms] of after) {
    const used = ms - (before.get(tid) ?? 0);
    if (tid === mainTid) main = used;
    else if (!before.has(tid) && used > newThread) {
      others += newThread;
      newThread = used;
    } else others += used;
  }
  return { main, newThread, others };
}
