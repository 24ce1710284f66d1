/**
 * The stop-signal rule of every station process (electron/shell/signals.ts;
 * issue 21 item 8): handled for the whole close, duplicates of one press
 * coalesced, a repeat says it is closing, a deliberate third forces.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { handleStopSignals, type StopSignal } from '../../../electron/shell/signals';

function setup() {
  const source = new EventEmitter();
  let t = 0;
  const calls: string[] = [];
  const dispose = handleStopSignals({
    source,
    now: () => t,
    onStop: (s) => calls.push(`stop ${s}`),
    onForce: (s) => calls.push(`force ${s}`),
    say: (line) => calls.push(`say ${line}`),
  });
  const send = (s: StopSignal, at: number) => {
    t = at;
    source.emit(s);
  };
  return { source, calls, dispose, send };
}

describe('handleStopSignals', () => {
  it('one Ctrl+C under npm (the group’s SIGINT and npm’s forwarded one): one stop, nothing else', () => {
    const { calls, send } = setup();
    send('SIGINT', 1000);
    send('SIGINT', 1003);
    expect(calls).toEqual(['stop SIGINT']);
  });

  it('a second press says it is still closing; a deliberate third forces, once', () => {
    const { calls, send } = setup();
    send('SIGINT', 1000);
    send('SIGINT', 1002);
    send('SIGINT', 3000);
    send('SIGINT', 3001);
    expect(calls).toEqual(['stop SIGINT', expect.stringMatching(/^say Shipping Station: SIGINT again, still closing…/)]);
    send('SIGTERM', 6000);
    expect(calls.at(-1)).toBe('force SIGTERM');
    expect(calls.filter((c) => c.startsWith('say'))).toHaveLength(2);
    send('SIGINT', 9000);
    expect(calls.filter((c) => c.startsWith('force'))).toHaveLength(1);
  });

  it('SIGTERM and SIGHUP stop too; listeners stay on (never once) until disposed', () => {
    const { source, calls, send, dispose } = setup();
    send('SIGHUP', 0);
    expect(calls).toEqual(['stop SIGHUP']);
    for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP']) expect(source.listenerCount(s), s).toBe(1);
    send('SIGTERM', 5000);
    for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP']) expect(source.listenerCount(s), s).toBe(1);
    dispose();
    for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP']) expect(source.listenerCount(s), s).toBe(0);
  });
});
