/**
 * OS print queues (`printer:<queue>`): the ZPL bytes go raw through the
 * operating system's spooler, for printers a vendor driver owns (Windows with
 * the ZDesigner driver, any CUPS queue).
 *
 * - Linux and macOS: CUPS `lp -d <queue> -o raw -t <job>` with the bytes on
 *   stdin (CUPS "raw" skips every filter: the printer gets the bytes as sent).
 * - Windows: the spooler's RAW datatype through Windows' own PowerShell and
 *   winspool.drv (OpenPrinter / StartDocPrinter with datatype "RAW" /
 *   WritePrinter, as Microsoft's KB 322091 shows); no extra package, no
 *   native addon to rebuild.
 *
 * Status: the spooler knows whether the queue exists and accepts jobs, not
 * whether the printer has paper, so an enabled queue is "status unknown"
 * and a stopped/disabled one is `paused` (jobs wait, as for any fault).
 * Commands are spawned with an argument list, never through a shell. No way
 * back from the printer through a queue: a {@link Transport} without `read`.
 */
import { spawn } from 'node:child_process';
import { PrinterError, printerFailure } from '../errors';
import type { PrintOptions, PrinterStatus } from '../types';
import type { Transport, TransportWrite } from './transport';
import type { DeviceUri } from './uri';

/** Result of one spooler command. */
export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command with `input` on stdin; resolves when it exits (or is killed
 * after `timeoutMs`, then `code` is null). Rejects only when it cannot start (ENOENT).
 */
export type CommandRunner = (cmd: string, args: readonly string[], input: Uint8Array | null, timeoutMs: number, env?: Record<string, string>) => Promise<CommandResult>;

/** The default {@link CommandRunner}: `child_process.spawn`, no shell. */
const runCommand: CommandRunner = (cmd, args, input, timeoutMs, env) =>
  new Promise((resolve, reject) => {
    const child = spawn(cmd, [...args], { stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true, env: env ? { ...process.env, ...env } : process.env });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: signal ? null : code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
    child.stdin.on('error', () => undefined); // a command that exits early closes its stdin
    child.stdin.end(input ? Buffer.from(input.buffer, input.byteOffset, input.byteLength) : undefined);
  });

/** PowerShell that sends stdin raw to a Windows printer (winspool.drv, datatype RAW). Printer name in $env:SS_QUEUE. */
const WINDOWS_RAW_SCRIPT = `
$ErrorActionPreference = 'Stop'
Add-Type -TypeDefinition @'
using System; using System.Runtime.InteropServices;
public static class RawPrint {
  [StructLayout(LayoutKind.Sequential, CharSet = CharSet.Unicode)] public class DOCINFO { public string pDocName; public string pOutputFile; public string pDataType; }
  [DllImport("winspool.drv", CharSet = CharSet.Unicode, SetLastError = true)] public static extern bool OpenPrinter(string n, out IntPtr h, IntPtr d);
  [DllImport("winspool.drv", SetLastError = true)] public static extern bool ClosePrinter(IntPtr h);
  [DllImport("winspool.drv", CharSet = CharSet.Unicode, SetLastError = true)] public static extern int StartDocPrinter(IntPtr h, int level, DOCINFO di);
  [DllImport("winspool.drv", SetLastError = true)] public static extern bool EndDocPrinter(IntPtr h);
  [DllImport("winspool.drv", SetLastError = true)] public static extern bool StartPagePrinter(IntPtr h);
  [DllImport("winspool.drv", SetLastError = true)] public static extern bool EndPagePrinter(IntPtr h);
  [DllImport("winspool.drv", SetLastError = true)] public static extern bool WritePrinter(IntPtr h, byte[] b, int n, out int w);
  public static int Send(string printer, string job, byte[] bytes) {
    IntPtr h; if (!OpenPrinter(printer, out h, IntPtr.Zero)) return Marshal.GetLastWin32Error();
    try {
      var di = new DOCINFO { pDocName = job, pDataType = "RAW" };
      if (StartDocPrinter(h, 1, di) == 0) return Marshal.GetLastWin32Error();
      StartPagePrinter(h); int w; bool ok = WritePrinter(h, bytes, bytes.Length, out w); EndPagePrinter(h); EndDocPrinter(h);
      if (!ok || w != bytes.Length) return Marshal.GetLastWin32Error();
      return 0;
    } finally { ClosePrinter(h); }
  }
}
'@
$in = [Console]::OpenStandardInput(); $ms = New-Object System.IO.MemoryStream; $in.CopyTo($ms)
$rc = [RawPrint]::Send($env:SS_QUEUE, $env:SS_JOB, $ms.ToArray())
if ($rc -ne 0) { [Console]::Error.WriteLine("spooler error $rc"); exit 2 }
`;

/** Options of {@link QueueTransport}. */
export interface QueueTransportOptions {
  timeoutMs: number;
  /** Spawns the spooler commands (tests record them). */
  run?: CommandRunner;
  /** Platform whose spooler is used (default `process.platform`). */
  platform?: NodeJS.Platform;
}

/** A printer reached through an OS print queue, as a {@link Transport}. */
export class QueueTransport implements Transport {
  readonly uri: string;
  readonly name: string;
  readonly queue: string;
  readonly release = 'each' as const;
  private readonly run: CommandRunner;
  private readonly platform: NodeJS.Platform;

  constructor(
    dev: Extract<DeviceUri, { scheme: 'printer' }>,
    private readonly opts: QueueTransportOptions,
  ) {
    this.uri = dev.uri;
    this.queue = dev.queue;
    this.name = `Print queue ${dev.queue}`;
    this.run = opts.run ?? runCommand;
    this.platform = opts.platform ?? process.platform;
  }

  /** Nothing to open: each job is one spooler command. */
  open(): Promise<void> {
    return Promise.resolve();
  }

  /**
   * Hands the bytes to the spooler as a raw job. Resolves once the spooler
   * accepted the job (`lp` printed "request id is …", or WritePrinter wrote
   * every byte); it cannot say when the label came out.
   * @throws PrinterError `printer_unreachable` (no such queue, no spooler command), `printer_timeout`,
   *   `printer_error` (refused), `printer_unsupported` (a PDF on Windows); delivered `none` in every
   *   case (a refused job is not queued)
   */
  async write(zpl: Uint8Array, opts: PrintOptions = {}): Promise<TransportWrite> {
    const job = (opts.jobName ?? 'label').slice(0, 100);
    if (opts.document === 'pdf' && this.platform === 'win32') {
      // The Windows spooler's RAW datatype hands bytes to the driver as they are: a PDF would print as garbage.
      throw printerFailure('printer_unsupported', 'queueNoPdf', { queue: this.queue }, { delivered: 'none' });
    }
    let res: CommandResult;
    try {
      res =
        this.platform === 'win32'
          ? await this.runWindows(zpl, job)
          : await this.run('lp', ['-d', this.queue, ...(opts.document === 'pdf' ? [] : ['-o', 'raw']), '-t', job], zpl, this.opts.timeoutMs);
    } catch (e) {
      throw this.startError(e);
    }
    if (res.code === null) throw printerFailure('printer_timeout', 'queueNoAnswer', { queue: this.queue, ms: this.opts.timeoutMs }, { delivered: 'none' });
    if (res.code !== 0) {
      const why = (res.stderr || res.stdout).trim().split('\n')[0] ?? '';
      const missing = /does not exist|unknown destination|not found|1801/i.test(why);
      throw printerFailure(missing ? 'printer_unreachable' : 'printer_error', 'queueRefused', { queue: this.queue, reason: why || `exit code ${res.code}` }, { delivered: 'none' });
    }
    return { bytesWritten: zpl.byteLength };
  }

  private runWindows(zpl: Uint8Array, job: string): Promise<CommandResult> {
    // Name and job go through the environment: nothing is interpolated into the script.
    const args = ['-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-Command', WINDOWS_RAW_SCRIPT];
    return this.run('powershell.exe', args, zpl, this.opts.timeoutMs, { SS_QUEUE: this.queue, SS_JOB: job });
  }

  private startError(e: unknown): PrinterError {
    const code = (e as NodeJS.ErrnoException | null)?.code;
    const cmd = this.platform === 'win32' ? 'powershell.exe' : 'lp (CUPS)';
    if (code === 'ENOENT') return printerFailure('printer_unreachable', 'queueNotInstalled', { queue: this.queue, command: cmd }, { cause: e, delivered: 'none' });
    return printerFailure('printer_error', 'queueFailed', { queue: this.queue, reason: e instanceof Error ? e.message : String(e) }, { cause: e, delivered: 'none' });
  }

  /**
   * Asks the spooler about the queue (`lpstat -p <queue>`; on Windows
   * `Get-Printer`). Missing queue: `unreachable`; disabled/paused: `paused`;
   * enabled: `unknown` (the spooler does not know paper or head). Never throws.
   */
  async ownStatus(): Promise<PrinterStatus> {
    let res: CommandResult;
    try {
      res =
        this.platform === 'win32'
          ? await this.run(
              'powershell.exe',
              ['-NoProfile', '-NonInteractive', '-Command', '(Get-Printer -Name $env:SS_QUEUE).PrinterStatus'],
              null,
              this.opts.timeoutMs,
              { SS_QUEUE: this.queue },
            )
          : await this.run('lpstat', ['-p', this.queue], null, this.opts.timeoutMs);
    } catch (e) {
      return { state: 'unreachable', detail: this.startError(e).message };
    }
    const text = `${res.stdout}\n${res.stderr}`.trim();
    if (res.code === null) return { state: 'unknown', detail: `The print spooler did not answer within ${this.opts.timeoutMs} ms` };
    if (res.code !== 0 || /does not exist|invalid destination|no such/i.test(text)) return { state: 'unreachable', detail: `Print queue ${this.queue} does not exist (${text.split('\n')[0] ?? ''})` };
    if (/disabled|paused|stopped|offline/i.test(text)) return { state: 'paused', detail: `Print queue ${this.queue} is stopped: ${text.split('\n')[0] ?? ''}` };
    return { state: 'unknown', detail: `Print queue ${this.queue} accepts jobs (the spooler does not report paper or head)` };
  }

  /** Nothing to release. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  /** Nothing to release. */
  dispose(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * OS print queues for discovery: `lpstat -e` (CUPS 2: one name a line; falls
 * back to `lpstat -p`), on Windows `Get-Printer`. Empty when no spooler.
 */
export async function listQueues(run: CommandRunner = runCommand, platform: NodeJS.Platform = process.platform): Promise<Array<{ queue: string; uri: string }>> {
  const uri = (q: string): string => `printer:${encodeURIComponent(q)}`;
  try {
    if (platform === 'win32') {
      const r = await run('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', 'Get-Printer | ForEach-Object { $_.Name }'], null, 5000);
      return r.code === 0 ? r.stdout.split(/\r?\n/).map((s) => s.trim()).filter(Boolean).map((queue) => ({ queue, uri: uri(queue) })) : [];
    }
    let r = await run('lpstat', ['-e'], null, 5000);
    let names = r.code === 0 ? r.stdout.split('\n').map((s) => s.trim()).filter(Boolean) : [];
    if (r.code !== 0) {
      r = await run('lpstat', ['-p'], null, 5000);
      names = r.code === 0 ? [...r.stdout.matchAll(/^printer (\S+)/gm)].map((m) => m[1] ?? '').filter(Boolean) : [];
    }
    return names.map((queue) => ({ queue, uri: uri(queue) }));
  } catch {
    return [];
  }
}
