/**
 * A fake ZPL label printer on 127.0.0.1 for the chaos runs, with the faults
 * a bench meets: `off` (nothing listens: connection refused), `stall`
 * (accepts and never reads), `paper_out` (answers `~HS` with paper out and
 * paused; bytes sent anyway stay in its buffer and print when paper is back,
 * as a Zebra does), `ready`. It keeps every label it took (bytes between
 * `^XA` and `^XZ`), so a run can count what each shipment printed.
 */
import net from 'node:net';
import { hsAnswer } from '../unit/core/printing/zpl/hs-answer';

/** Printer condition. */
export type PrinterMode = 'ready' | 'off' | 'stall' | 'paper_out';

/** The running fake printer. */
export interface ChaosPrinter {
  readonly port: number;
  readonly uri: string;
  readonly mode: PrinterMode;
  /** Switches the condition (`off` stops listening, anything else listens on the same port). */
  setMode(mode: PrinterMode): Promise<void>;
  /** Labels taken so far (each `^XA...^XZ`), in arrival order. */
  readonly labels: string[];
  /** Called with each label as it arrives (before the connection ends). */
  onLabel: ((zpl: string) => void) | null;
  close(): Promise<void>;
}

/** Starts the printer `ready` on a free port. */
export async function startChaosPrinter(): Promise<ChaosPrinter> {
  let mode: PrinterMode = 'ready';
  const labels: string[] = [];
  const sockets = new Set<net.Socket>();
  const api: { onLabel: ((zpl: string) => void) | null } = { onLabel: null };

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (mode === 'stall') {
      socket.pause();
      return;
    }
    let text = '';
    socket.on('data', (d: Buffer) => {
      text += d.toString('latin1');
      if (text.includes('~HS')) {
        text = text.replace('~HS', '');
        socket.write(hsAnswer({ paperOut: mode === 'paper_out', paused: mode === 'paper_out' }));
      }
      for (;;) {
        const start = text.indexOf('^XA');
        const end = text.indexOf('^XZ', start);
        if (start < 0 || end < 0) break;
        const label = text.slice(start, end + 3);
        text = text.slice(end + 3);
        labels.push(label);
        api.onLabel?.(label);
      }
    });
    socket.on('end', () => socket.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  let listening = true;

  return {
    port,
    uri: `socket://127.0.0.1:${port}`,
    get mode() {
      return mode;
    },
    async setMode(next) {
      mode = next;
      if (next === 'off' && listening) {
        listening = false;
        for (const s of sockets) s.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      } else if (next !== 'off' && !listening) {
        await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
        listening = true;
      }
      if (next !== 'stall') for (const s of sockets) if (s.isPaused()) s.destroy();
    },
    labels,
    get onLabel() {
      return api.onLabel;
    },
    set onLabel(f) {
      api.onLabel = f;
    },
    async close() {
      for (const s of sockets) s.destroy();
      if (listening) await new Promise<void>((resolve) => server.close(() => resolve()));
      listening = false;
    },
  };
}
