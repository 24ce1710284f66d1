/**
 * The platform in a process of its own, for benches that measure the
 * station's memory (the soak): an in-process sandbox keeps every shipment,
 * as a platform does, and its growth would be counted as the station's.
 * Prints one JSON line `{baseUrl, authUrl, clientId, clientSecret}` once
 * listening, with the demo account's credit raised; stops when its stdin closes.
 *
 * Usage: node --import tsx test/bench/sandbox-child.ts
 */
import { createSandbox } from '../../electron/sandbox/index';

const sb = await createSandbox({ port: 0, rateLimits: false });
const account = sb.state.accounts[0];
if (account) account.credit.balance = 10_000_000;
const demo = sb.clients[0];
if (!demo) throw new Error('sandbox has no demo client');
console.log(JSON.stringify({ baseUrl: sb.baseUrl, authUrl: sb.authUrl, clientId: demo.clientId, clientSecret: demo.clientSecret }));
process.stdin.resume();
process.stdin.on('end', () => void sb.close().then(() => process.exit(0)));
