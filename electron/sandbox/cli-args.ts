/** Command-line options of the sandbox CLI (cli.ts), parsed without side effects so they can be tested. */

/**
 * Parsed command line: `port` 0..65535 (0 = any free), `host`, optional
 * tracking-number seed, request logging, `stateFile` (state kept across
 * restarts), `rateLimits` (default on; `--no-rate-limits` turns them off).
 */
export interface CliArgs {
  port: number;
  host: string;
  randomSeed?: number;
  log: boolean;
  stateFile?: string;
  /** Only set (false) by `--no-rate-limits`; absent = rate limits on. */
  rateLimits?: boolean;
  /** `--webhook-loopback-http`: accept plain-http webhook receivers on loopback (localhost, 127.x, ::1). */
  webhookLoopbackHttp?: boolean;
  /** `--webhook-local-targets`: accept webhook receivers on loopback and private addresses (a local sandbox only). */
  webhookLocalTargets?: boolean;
  /** Only set (false) by `--no-history`; absent = the demo accounts' past (invoices, COD lists, returns) is seeded. */
  history?: boolean;
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
      case '--state-file':
        out.stateFile = value();
        break;
      case '--no-rate-limits':
        out.rateLimits = false;
        break;
      case '--webhook-loopback-http':
        out.webhookLoopbackHttp = true;
        break;
      case '--webhook-local-targets':
        out.webhookLocalTargets = true;
        break;
      case '--no-history':
        out.history = false;
        break;
      default:
        throw new Error(`Unknown option "${arg}" (options: --port <n>, --host <addr>, --seed <int>, --log, --state-file <path>, --no-rate-limits, --no-history, --webhook-loopback-http, --webhook-local-targets)`);
    }
  }
  return out;
}
