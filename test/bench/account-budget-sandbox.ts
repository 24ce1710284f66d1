/**
 * The platform for the account-budget bench (./account-budget.ts), in a process of its own so its label
 * rendering does not share the benches' event loop: the sandbox with the spec's rate limits ON, its clock running
 * `BENCH_SPEED` times faster than the machine's (so its per-minute windows last 60 / BENCH_SPEED s), and the demo
 * account's credit raised; a line `speed N` on its stdin changes the speed from then on. Prints one JSON line `{baseUrl, authUrl, clientId, clientSecret, startedAt}` once
 * listening; stops when its stdin closes.
 *
 * Usage: BENCH_SPEED=10 node --import tsx test/bench/account-budget-sandbox.ts
 */
import readline from 'node:readline';
import { createSandbox } from '../../electron/sandbox/index';

const speed = Number(process.env.BENCH_SPEED ?? 10);
if (!(speed >= 1 && speed <= 60)) throw new Error(`BENCH_SPEED must be between 1 and 60, not ${process.env.BENCH_SPEED}`);
const startedAt = Date.now();
// The clock's speed changes when the parent writes `speed N` (the busy minutes run slower): time goes on from where it is.
let anchor = { real: startedAt, sim: startedAt, speed };
const simNow = (): number => anchor.sim + (Date.now() - anchor.real) * anchor.speed;
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const m = /^speed (\d+(?:\.\d+)?)$/.exec(line.trim());
  if (m) anchor = { real: Date.now(), sim: simNow(), speed: Number(m[1]) };
});
const sb = await createSandbox({ port: 0, clock: () => new Date(simNow()) });
const account = sb.state.accounts[0];
if (account) account.credit.balance = 10_000_000;
const demo = sb.clients[0];
if (!demo) throw new Error('sandbox has no demo client');
console.log(JSON.stringify({ baseUrl: sb.baseUrl, authUrl: sb.authUrl, clientId: demo.clientId, clientSecret: demo.clientSecret, startedAt }));
process.stdin.on('end', () => void sb.close().then(() => process.exit(0)));
