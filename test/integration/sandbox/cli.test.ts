import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

const Ready = z.object({
  baseUrl: z.string(),
  authUrl: z.string(),
  clients: z.array(z.object({ clientId: z.string(), clientSecret: z.string(), name: z.string() })).min(2),
});

describe('sandbox CLI', () => {
  let child: ChildProcess | undefined;
  afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  });

  it('prints one JSON line with baseUrl, authUrl and clients, serves, and stops on SIGTERM', async () => {
    child = spawn(process.execPath, ['--import', 'tsx', 'electron/sandbox/cli.ts', '--port', '0'], {
      cwd: process.cwd(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines = createInterface({ input: child.stdout! });
    const stdoutLines: string[] = [];
    const first = new Promise<string>((resolve, reject) => {
      lines.on('line', (l) => {
        stdoutLines.push(l);
        if (stdoutLines.length === 1) resolve(l);
      });
      child!.once('exit', (code) => reject(new Error(`CLI exited early with ${code}`)));
    });
    const ready = Ready.parse(JSON.parse(await first));
    expect(ready.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/2026-09$/);
    expect(ready.baseUrl.startsWith(ready.authUrl)).toBe(true);

    const c = ready.clients[0]!;
    const tok = await fetch(`${ready.authUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret, scope: 'client-api' }),
    });
    expect(tok.status).toBe(200);
    const { access_token } = (await tok.json()) as { access_token: string };
    const carriers = await fetch(`${ready.baseUrl}/carriers`, { headers: { authorization: `Bearer ${access_token}`, accept: 'application/json' } });
    expect(carriers.status).toBe(200);
    expect(((await carriers.json()) as { data: unknown[] }).data.length).toBeGreaterThan(2);

    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
    expect(stdoutLines).toHaveLength(1);
  });

  it('exits 2 naming a bad option', async () => {
    child = spawn(process.execPath, ['--import', 'tsx', 'electron/sandbox/cli.ts', '--port', 'abc'], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(2);
    expect(stderr).toMatch(/--port/);
  });
});
