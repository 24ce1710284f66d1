/**
 * A TCP listener standing in for a Zebra label printer on port 0: records the
 * bytes of every connection and answers `~HS` with three host status strings
 * (ZPL II Programming Guide, ~HS: paper in, not paused, head closed, tear-off),
 * so the station sees a ready printer.
 */
import net from 'node:net';

/** ~HS answer of a ready printer: `<STX>string<ETX><CR><LF>` x3. */
const HS_READY = '\x02030,0,0,1218,000,0,0,0,000,0,0,0\x03\r\n\x02000,0,0,0,0,2,6,0,00000000,1,000\x03\r\n\x021234,0\x03\r\n';

export interface FakePrinter {
  port: number;
  /** Bytes received per finished connection, oldest first (status queries included). */
  connections: Buffer[];
  /** Connections that carried a label (`^XA`), as latin1 text. */
  labels(): string[];
  /** Resolves when a label containing `text` has arrived (checks already received ones first). */
  waitForLabel(text: string, timeoutMs?: number): Promise<string>;
  close(): Promise<void>;
}

export async function startFakePrinter(): Promise<FakePrinter> {
  const connections: Buffer[] = [];
  const waiters = new Set<() => void>();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    const chunks: Buffer[] = [];
    let answered = false;
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      if (!answered && Buffer.concat(chunks).includes('~HS')) {
        answered = true;
        socket.write(HS_READY, 'latin1');
      }
    });
    socket.on('error', () => undefined);
    const finish = () => {
      sockets.delete(socket);
      if (chunks.length === 0) return;
      connections.push(Buffer.concat(chunks));
      chunks.length = 0;
      for (const w of [...waiters]) w();
    };
    socket.on('end', () => {
      socket.end();
      finish();
    });
    socket.on('close', finish);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake printer did not bind');
  const labels = () => connections.map((b) => b.toString('latin1')).filter((t) => t.includes('^XA'));
  return {
    port: address.port,
    connections,
    labels,
    waitForLabel(text, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hit = labels().find((l) => l.includes(text));
          if (hit === undefined) return false;
          clearTimeout(timer);
          waiters.delete(onChange);
          resolve(hit);
          return true;
        };
        const onChange = () => void check();
        const timer = setTimeout(() => {
          waiters.delete(onChange);
          reject(new Error(`no label containing ${text} within ${timeoutMs} ms (${labels().length} labels received)`));
        }, timeoutMs);
        waiters.add(onChange);
        check();
      });
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
