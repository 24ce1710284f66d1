/**
 * `npm run sandbox -- [--port <n>] [--host <addr>] [--seed <int>] [--log] [--state-file <path>] [--no-rate-limits] [--webhook-loopback-http] [--webhook-local-targets]`
 *
 * Starts the sandbox and, once it listens, prints exactly one JSON line on
 * stdout: `{"baseUrl": ..., "authUrl": ..., "clients": [{clientId, clientSecret, name}]}`.
 * Nothing else goes to stdout (logs and errors go to stderr), so a parent
 * process can read the first line as its readiness signal. Runs until
 * SIGINT/SIGTERM, then closes and exits 0. Exit code 2 on bad arguments, 1
 * when the server cannot start.
 */
import { parseArgs, type CliArgs } from './cli-args';
import { createSandbox, demoSeed } from './index';

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
  const sb = await createSandbox({
    port: args.port,
    host: args.host,
    seed,
    logger: args.log,
    rateLimits: args.rateLimits ?? true,
    // Integrators and trainees see an account with a past (invoices, COD lists, returns).
    history: args.history ?? true,
    ...(args.webhookLoopbackHttp ? { webhookLoopbackHttp: true } : {}),
    ...(args.webhookLocalTargets ? { webhookLocalTargets: true } : {}),
    ...(args.stateFile !== undefined ? { stateFile: args.stateFile } : {}),
  });
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
