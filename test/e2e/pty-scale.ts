/**
 * A serial scale on a pseudo-terminal for e2e tests: `script` (util-linux)
 * holds the pty's master and runs `sleep` on its slave; the station opens the
 * slave (`/dev/pts/N`) with serialport like a USB-serial scale, and what the
 * test writes to `script`'s stdin arrives there as the scale's output
 * (continuous mode, e.g. `ST,GS,+  1.230kg`). Linux only.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';

/** The running pty scale. */
export interface PtyScale {
  /** Device path of the slave side, for `scales.set` (`/dev/pts/N`). */
  path: string;
  /** Sends one line of scale output (CR LF added). */
  send(line: string): void;
  close(): void;
}

/** The pid of a process whose parent is `ppid`, from /proc. */
function childOf(ppid: number): number | undefined {
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      // pid (comm) state ppid …: comm may hold spaces, so split after its closing parenthesis.
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === ppid) return Number(d);
    } catch {
      // the process ended while listing
    }
  }
  return undefined;
}

/**
 * Starts the pty and resolves with its slave path once `sleep` holds it.
 * @throws Error when no pty could be made within 5 s
 */
export async function startPtyScale(): Promise<PtyScale> {
  const script = spawn('script', ['-qfc', 'sleep 3600', '/dev/null'], { stdio: ['pipe', 'ignore', 'ignore'] });
  const until = Date.now() + 5000;
  for (;;) {
    const pid = script.pid === undefined ? undefined : childOf(script.pid);
    const tty = pid === undefined ? '' : fs.readlinkSync(`/proc/${pid}/fd/0`);
    if (tty.startsWith('/dev/pts/')) {
      return {
        path: tty,
        send: (line) => void script.stdin.write(`${line}\r\n`),
        close: () => {
          if (pid !== undefined) process.kill(pid);
          script.kill();
        },
      };
    }
    if (Date.now() > until) {
      script.kill();
      throw new Error('no pseudo-terminal: is `script` (util-linux) installed?');
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
