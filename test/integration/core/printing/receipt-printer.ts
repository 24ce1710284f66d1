/**
 * A receipt printer on a loopback TCP port, for slip tests: it keeps the
 * bytes of each connection as one slip, to decode with test/support/escpos.ts.
 */
import net from 'node:net';

/** A receipt printer on 127.0.0.1:`port`: the bytes of each connection are one slip. */
export async function receiptPrinter(port = 0): Promise<{ port: number; slips: Buffer[]; close(): Promise<void> }> {
  const slips: Buffer[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      if (chunks.length) slips.push(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    slips,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
