/**
 * The platform for the account-budget bench (./account-budget.ts), in a process of its own so its label
 * rendering does not share the benches' event loop: the sandbox with the spec's rate limits ON, its clock running
 * `BENCH_SPEED` times faster than the machine's (so its per-minute windows last 60 / BENCH_SPEED s), and the demo
 * account's credit raised. Prints one JSON line `{baseUrl, authUrl, clientId, clientSecret, startedAt}` once
 * listening; stops when its stdin closes.
 *
 * Usage: BENCH_SPEED=10 node --import tsx test/bench/account-budget-sandbox.ts
 */
import { createSandbox } from '../../electron/sandbox/index';

const speed = Number(process.env.BENCH_SPEED ?? 10);
if (!(speed >= 1 && speed <= 60)) throw new Error(`BENCH_SPEED must be between 1 and 60, not ${process.env.BENCH_SPEED}`);
const startedAt = Date.now();
const sb = await createSandbox({ port: 0, clock: () => new Date(startedAt + (Date.now() - startedAt) * speed) });
const account = sb.state.accounts[0];
if (account) account.credit.balance = 10_000_000;
const demo = sb.clients[0];
if (!demo) throw new Error('sandbox has no demo client');
console.log(JSON.stringify({ baseUrl: sb.baseUrl, authUrl: sb.authUrl, clientId: demo.clientId, clientSecret: demo.clientSecret, startedAt }));
process.stdin.resume();
process.stdin.on('end', () => void sb.close().then(() => process.exit(0)));
