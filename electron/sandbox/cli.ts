/**
 * `npm run sandbox -- [--port <n>] [--host <addr>] [--seed <int>] [--log]`
 *
 * Starts the sandbox and, once it listens, prints exactly one JSON line on
 * stdout: `{"baseUrl": ..., "authUrl": ..., "clients": [{clientId, clientSecret, name}]}`.
 * Nothing else goes to stdout (logs and errors go to stderr), so a parent
 * process can read the first line as its readiness signal. Runs until
 * SIGINT/SIGTERM, then closes and exits 0. Exit code 2 on bad arguments, 1
 * when the server cannot start.
 */
import { createSandbox, demoSeed } from './index';

/** Parsed command line. */
interface CliArgs {
  port: number;
  host: string;
  randomSeed?: number;
  log: boolean;
}

/** Parses argv (after the script); throws Error naming the bad option. */
export function parseArgs(argv: string[]): CliArgs {
  const out: CliArgs = { port: 0, host: '127.0.0.1', log: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [name, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new Error(`${name} needs a value`);
      return v;
    };
    switch (name) {
      case '--port': {
        const v = value();
        const n = Number(v);
        if (!/^\d+$/.test(v) || n > 65535) throw new Error(`--port must be an integer 0..65535, got "${v}"`);
        out.port = n;
        break;
      }
      case '--host':
        out.host = value();
        break;
      case '--seed': {
        const v = value();
        if (!/^\d+$/.test(v)) throw new Error(`--seed must be a non-negative integer, got "${v}"`);
        out.randomSeed = Number(v) >>> 0;
        break;
      }
      case '--log':
        out.log = true;
        break;
      default:
        throw new Error(`Unknown option "${arg}" (options: --port <n>, --host <addr>, --seed <int>, --log)`);
    }
  }
  return out;
}

async function main(): Promise<void> {
  let args: CliArgs;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`sandbox: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(2);
  }
  const seed = demoSeed();
  if (args.randomSeed !== undefined) seed.randomSeed = args.randomSeed;
  const sb = await createSandbox({ port: args.port, host: args.host, seed, logger: args.log });
  process.stdout.write(JSON.stringify({ baseUrl: sb.baseUrl, authUrl: sb.authUrl, clients: sb.clients }) + '\n');
  process.stderr.write(`sandbox: listening on ${sb.authUrl} (API ${sb.baseUrl}); Ctrl+C to stop\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`sandbox: ${signal}, closing\n`);
    sb.close().then(
      () => process.exit(0),
      (e: unknown) => {
        process.stderr.write(`sandbox: close failed: ${String(e)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((e: unknown) => {
  process.stderr.write(`sandbox: cannot start: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
