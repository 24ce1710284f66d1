/**
 * Runs the station the way `npm run host` does (electron/host/cli.ts: core +
 * training sandbox + headless host on port 0) in a child process, and waits
 * for its "ready — open <url>" line: the readiness signal, no sleeps.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

export interface StationProcess {
  /** `http://127.0.0.1:<port>/#token=...` as printed. */
  url: string;
  /** The whole ready line (names the platform). */
  readyLine: string;
  /** Everything the process wrote so far (stdout + stderr), for failure messages. */
  output(): string;
  /**
   * SIGTERM, then resolves with the exit code. A station still running `graceMs` later (default 30000) is killed
   * (SIGKILL) and named on stderr with the end of its output, so a shutdown that hangs is seen, not waited on.
   */
  stop(graceMs?: number): Promise<number | null>;
}

/** Starts the host CLI with `args` (plus `--port 0`); rejects if it exits or stays silent for `timeoutMs`. */
export function startStationProcess(args: string[], timeoutMs = 60_000): Promise<StationProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('STATION_')) delete env[k];
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'electron', 'host', 'cli.ts'), ...args, '--port', '0'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`station did not print its ready line within ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const m = /^(Shipping Station ready .* open (http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]+))$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
        resolve({
          url: m[2]!,
          readyLine: m[1]!,
          output: () => out,
          stop: async (graceMs = 30_000) => {
            if (child.exitCode !== null) return exited;
            child.kill('SIGTERM');
            let timer: NodeJS.Timeout | undefined;
            const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), graceMs)));
            const first = await Promise.race([exited, late]);
            clearTimeout(timer);
            if (first !== 'late') return first;
            process.stderr.write(`station-process: pid ${child.pid} did not exit within ${graceMs} ms of SIGTERM; killed. Its last output:\n${out.slice(-2000)}\n`);
            child.kill('SIGKILL');
            return exited;
          },
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (c: Buffer) => (out += c.toString('utf8')));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`station exited (${code}) before it was ready:\n${out}`));
    });
  });
}
