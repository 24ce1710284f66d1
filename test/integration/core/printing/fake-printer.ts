/**
 * A stand-in for a ZPL printer on 127.0.0.1, port 0: it records the bytes of
 * each connection as a job and answers `~HS` according to `mode`.
 */
import net from 'node:net';
import { hsAnswer } from '../../../unit/core/printing/zpl/hs-answer';

export type FakeMode = 'ready' | 'paper_out' | 'head_open' | 'paused' | 'silent' | 'garbage' | 'hangup' | 'chunked' | 'stall';

export interface FakePrinter {
  readonly port: number;
  readonly uri: string;
  mode: FakeMode;
  /** Jobs received (bytes of each connection that was not only `~HS`), in arrival order. */
  readonly jobs: Buffer[];
  /** Resolves with the `n`th job (0-based) once its connection has ended. */
  job(n: number): Promise<Buffer>;
  /** Resolves on the next incoming connection. */
  nextConnection(): Promise<net.Socket>;
  close(): Promise<void>;
}

export async function startFakePrinter(mode: FakeMode = 'ready'): Promise<FakePrinter> {
  const jobs: Buffer[] = [];
  const jobWaiters: Array<{ n: number; resolve: (b: Buffer) => void }> = [];
  const connWaiters: Array<(s: net.Socket) => void> = [];
  const sockets = new Set<net.Socket>();
  const state = { mode };

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    connWaiters.splice(0).forEach((w) => w(socket));
    if (state.mode === 'stall') {
      socket.pause(); // never reads: the sender's buffers fill up
      return;
    }
    const chunks: Buffer[] = [];
    let answered = false;
    socket.on('data', (d: Buffer) => {
      chunks.push(d);
      if (answered || !Buffer.concat(chunks).includes('~HS')) return;
      answered = true;
      const m = state.mode;
      if (m === 'silent') return;
      if (m === 'hangup') return void socket.end();
      if (m === 'garbage') return void socket.write('\x02hello\x03\r\n\x02world\x03\r\n\x02!\x03\r\n');
      const answer = hsAnswer({ paperOut: m === 'paper_out', paused: m === 'paper_out' || m === 'paused', headUp: m === 'head_open' });
      if (m !== 'chunked') return void socket.write(answer);
      // One byte per write, as a slow serial-to-network bridge would.
      const bytes = Buffer.from(answer, 'latin1');
      let i = 0;
      const next = (): void => {
        if (i < bytes.length && !socket.destroyed) socket.write(bytes.subarray(i, ++i), () => setImmediate(next));
      };
      next();
    });
    socket.on('end', () => {
      const all = Buffer.concat(chunks);
      if (all.length > 0 && all.toString('latin1').replace(/~HQES|~HS/g, '') !== '') {
        jobs.push(all);
        for (const w of jobWaiters.filter((w) => w.n < jobs.length)) {
          jobWaiters.splice(jobWaiters.indexOf(w), 1);
          w.resolve(jobs[w.n] as Buffer);
        }
      }
      socket.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    uri: `socket://127.0.0.1:${port}`,
    get mode() {
      return state.mode;
    },
    set mode(m: FakeMode) {
      state.mode = m;
    },
    jobs,
    job: (n) => (jobs[n] ? Promise.resolve(jobs[n]) : new Promise((resolve) => jobWaiters.push({ n, resolve }))),
    nextConnection: () => new Promise((resolve) => connWaiters.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port with nothing listening (bound, then released). */
export async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}
