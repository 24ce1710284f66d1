/**
 * OS print queues (`printer:<queue>`) against a stand-in CUPS on PATH: `lp`
 * records its arguments and the bytes it got on stdin, `lpstat` answers
 * like CUPS 2.4 (Debian's cups is not installable in this sandbox; see the
 * manual check in README "Printers").
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listQueues, openPrinter, type LabelPrinter } from '../../../../electron/core/printing';

let bin: string;
let spool: string;
const oldPath = process.env.PATH;

beforeAll(() => {
  bin = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-cups-'));
  spool = path.join(bin, 'spool');
  fs.mkdirSync(spool);
  // lp: refuses unknown queues like CUPS, else stores args + stdin and prints the request id.
  fs.writeFileSync(
    path.join(bin, 'lp'),
    `#!/bin/sh
queue=""; prev=""
for a in "$@"; do [ "$prev" = "-d" ] && queue="$a"; prev="$a"; done
if [ "$queue" != "Zebra_ZD421" ] && [ "$queue" != "Stopped_Queue" ]; then echo "lp: The printer or class does not exist." >&2; exit 1; fi
n=$(ls "${spool}" | wc -l)
printf '%s\\n' "$@" > "${spool}/job$n.args"
cat > "${spool}/job$n.bytes"
echo "request id is $queue-$((n+1)) (1 file(s))"
`,
    { mode: 0o755 },
  );
  fs.writeFileSync(
    path.join(bin, 'lpstat'),
    `#!/bin/sh
if [ "$1" = "-e" ]; then printf 'Zebra_ZD421\\nStopped_Queue\\n'; exit 0; fi
case "$2" in
  Zebra_ZD421) echo "printer Zebra_ZD421 is idle.  enabled since Tue 24 Nov 2026 09:00:00";;
  Stopped_Queue) echo "printer Stopped_Queue disabled since Tue 24 Nov 2026 09:00:00 -"; echo "	Paused";;
  *) echo "lpstat: Invalid destination name in list \\"$2\\"." >&2; exit 1;;
esac
`,
    { mode: 0o755 },
  );
  process.env.PATH = `${bin}${path.delimiter}${oldPath ?? ''}`;
});
afterAll(() => {
  process.env.PATH = oldPath;
  fs.rmSync(bin, { recursive: true, force: true });
});

const ZPL = Buffer.from('^XA^FO50,50^FDLDV000000042^FS^XZ\r\n\x00\xff', 'latin1');

describe('print queue printer (CUPS lp -o raw)', () => {
  it('sends the exact bytes raw to the queue with lp -d <queue> -o raw -t <job>', async () => {
    const p: LabelPrinter = openPrinter('printer:Zebra_ZD421', { timeoutMs: 5000 });
    const res = await p.print(new Uint8Array(ZPL), { jobName: 'LDV000000042' });
    expect(res.bytesWritten).toBe(ZPL.length);
    const files = fs.readdirSync(spool).sort();
    expect(files).toEqual(['job0.args', 'job0.bytes']);
    expect(fs.readFileSync(path.join(spool, 'job0.args'), 'utf8').trim().split('\n')).toEqual(['-d', 'Zebra_ZD421', '-o', 'raw', '-t', 'LDV000000042']);
    expect(fs.readFileSync(path.join(spool, 'job0.bytes')).equals(ZPL)).toBe(true);
  });

  it('refuses with printer_unreachable (nothing delivered: the job may wait) for a queue that does not exist', async () => {
    const p = openPrinter('printer:Nope', { timeoutMs: 5000 });
    await expect(p.print(new Uint8Array(ZPL))).rejects.toMatchObject({ code: 'printer_unreachable', delivered: 'none', message: expect.stringContaining('does not exist') });
    expect(await p.status()).toMatchObject({ state: 'unreachable' });
  });

  it('reads the queue state: enabled is status unknown (never ready), disabled is paused', async () => {
    expect(await openPrinter('printer:Zebra_ZD421').status()).toMatchObject({ state: 'unknown', detail: expect.stringContaining('accepts jobs') });
    expect(await openPrinter('printer:Stopped_Queue').status()).toMatchObject({ state: 'paused' });
  });

  it('lists the queues for discovery', async () => {
    expect(await listQueues()).toEqual([
      { queue: 'Zebra_ZD421', uri: 'printer:Zebra_ZD421' },
      { queue: 'Stopped_Queue', uri: 'printer:Stopped_Queue' },
    ]);
  });

  it('says lp is missing when CUPS is not installed', async () => {
    const p = openPrinter('printer:Zebra_ZD421', {
      run: () => Promise.reject(Object.assign(new Error('spawn lp ENOENT'), { code: 'ENOENT' })),
    });
    await expect(p.print(new Uint8Array(ZPL))).rejects.toMatchObject({ code: 'printer_unreachable', message: expect.stringContaining('not installed') });
  });

  it('uses the Windows spooler RAW datatype through PowerShell, the queue name passed in the environment', async () => {
    const calls: Array<{ cmd: string; args: readonly string[]; env?: Record<string, string>; bytes: number }> = [];
    const { QueueTransport } = await import('../../../../electron/core/printing/transports/os-spooler');
    const p = new QueueTransport(
      { scheme: 'printer', uri: 'printer:ZDesigner ZD421', queue: 'ZDesigner ZD421-203dpi ZPL' },
      {
        timeoutMs: 1000,
        platform: 'win32',
        run: (cmd, args, input, _t, env) => {
          calls.push({ cmd, args, ...(env ? { env } : {}), bytes: input?.length ?? 0 });
          return Promise.resolve({ code: 0, stdout: '', stderr: '' });
        },
      },
    );
    await p.write(new Uint8Array(ZPL), { jobName: 'LDV1' });
    expect(calls[0]).toMatchObject({ cmd: 'powershell.exe', env: { SS_QUEUE: 'ZDesigner ZD421-203dpi ZPL', SS_JOB: 'LDV1' }, bytes: ZPL.length });
    expect(calls[0]?.args.at(-1)).toContain('pDataType = "RAW"');
    expect(calls[0]?.args.join(' ')).not.toContain('ZDesigner');
  });
});
