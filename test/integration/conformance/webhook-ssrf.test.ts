/**
 * Fault injection, issue 7 item 11: the sandbox must not be made to call
 * into its own network (SSRF). Webhook targets on loopback, private,
 * link-local and unique-local addresses, `localhost` names, and names that
 * resolve to such addresses at delivery time are refused, unless the sandbox
 * runs locally (listening on loopback) with local targets explicitly on.
 * Delivery-time cases use an injected resolver (the sandbox's
 * `webhookLookup`) and a TCP listener that counts connections: a refused
 * target is never connected to.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../../electron/sandbox/index';
import { guardedLookup, postWebhook, type AddressLookup } from '../../../electron/sandbox/webhooks/dispatcher';
import { localTargetProblem, webhookUrlProblem } from '../../../shared/platform/webhooks';
import { MONDAY_2026_09_14, pkg, recipient, start, type Caller, type ErrorBody } from '../sandbox/helpers';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function sandbox(opts: SandboxOptions = {}): Promise<{ sb: Sandbox; a: Caller }> {
  const { sb, a } = await start({ clock: MONDAY_2026_09_14, ...opts });
  cleanups.push(() => sb.close());
  return { sb, a };
}

/** A TCP listener on 127.0.0.1 that counts connections (nothing must reach it). */
async function listener(): Promise<{ port: number; connections: () => number }> {
  let n = 0;
  const srv = net.createServer((s) => {
    n++;
    s.destroy();
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  cleanups.push(() => new Promise<void>((r) => srv.close(() => r())));
  return { port: (srv.address() as net.AddressInfo).port, connections: () => n };
}

/** Local targets as a client might spell them in a webhook URL. */
const LOCAL_URLS = [
  'https://127.0.0.1/h',
  'https://127.1/h',
  'https://2130706433/h',
  'https://0x7f.0.0.1/h',
  'https://127.8.9.10:8443/h',
  'https://localhost/h',
  'https://LOCALHOST./h',
  'https://hooks.localhost/h',
  'https://[::1]/h',
  'https://[::ffff:127.0.0.1]/h',
  'https://[::ffff:10.0.0.1]/h',
  'https://0.0.0.0/h',
  'https://[::]/h',
  'https://10.1.2.3/h',
  'https://172.16.0.1/h',
  'https://172.31.255.254/h',
  'https://192.168.1.10/h',
  'https://169.254.169.254/latest/meta-data',
  'https://[fe80::1]/h',
  'https://[fd00::1]/h',
  'https://[fc00::abcd]/h',
  'https://100.64.0.1/h',
  'https://[64:ff9b::7f00:1]/h',
  'https://[2002:7f00:1::]/h',
];

describe('registration refuses local targets (422 at url)', () => {
  it.each(LOCAL_URLS)('%s', async (url) => {
    const { sb, a } = await sandbox();
    const r = await a<ErrorBody>('POST', '/webhooks', { url, events: ['shipment.created'] });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('validation_failed');
    expect(r.body.error.details?.url?.[0]).toMatch(/^URL must point to a public address: /);
    expect(sb.state.webhooks.endpoints).toHaveLength(0);
  });

  it('public addresses and names are accepted', async () => {
    const { a } = await sandbox();
    for (const url of ['https://hooks.example.com/h', 'https://93.184.216.34/h', 'https://[2606:4700::1111]/h', 'https://172.32.0.1/h', 'https://11.0.0.1/h']) {
      const r = await a('POST', '/webhooks', { url, events: ['shipment.created'] });
      expect(r.status, url).toBe(201);
    }
  });

  it('with webhookLocalTargets on a loopback sandbox they are accepted (a local training or test sandbox)', async () => {
    const { a } = await sandbox({ webhookLocalTargets: true });
    for (const url of ['https://127.0.0.1/h', 'https://localhost/h', 'https://192.168.1.10/h', 'https://[fd00::1]/h']) {
      const r = await a('POST', '/webhooks', { url, events: ['shipment.created'] });
      expect(r.status, url).toBe(201);
    }
    // Plain http still needs webhookLoopbackHttp.
    const http = await a<ErrorBody>('POST', '/webhooks', { url: 'http://127.0.0.1/h', events: ['shipment.created'] });
    expect(http.status).toBe(422);
  });

  it('the option is refused for a sandbox listening beyond loopback', async () => {
    await expect(createSandbox({ port: 0, host: '0.0.0.0', webhookLocalTargets: true })).rejects.toThrow(/local sandbox only; it listens on 0\.0\.0\.0/);
    await expect(createSandbox({ port: 0, host: '0.0.0.0', webhookLoopbackHttp: true })).rejects.toThrow(/local sandbox only/);
  });

  it('the shared rule names what each target is', () => {
    expect(localTargetProblem('169.254.169.254')).toBe('169.254.169.254 is a link-local address');
    expect(localTargetProblem('[::ffff:7f00:1]')).toBe('127.0.0.1 is a loopback address');
    expect(localTargetProblem('[fd12::1]')).toBe('fd12::1 is a unique-local (private) IPv6 address');
    expect(localTargetProblem('printer.localhost.')).toBe('printer.localhost is a localhost name');
    expect(localTargetProblem('hooks.example.com')).toBeUndefined();
    expect(webhookUrlProblem('https://10.0.0.1/h', { allowLocalTargets: true })).toBeUndefined();
    expect(webhookUrlProblem('http://127.0.0.1/h', { allowLoopbackHttp: true })).toBeUndefined();
  });
});

describe('delivery refuses names that resolve to local addresses (checked at each delivery, never connected)', () => {
  it('a name registered while public, resolving to 127.0.0.1 at delivery: failed, not retried, receiver never reached', async () => {
    const target = await listener();
    const dns = new Map<string, string>([['hooks.example.net', '93.184.216.34']]);
    const lookup: AddressLookup = (host, cb) => {
      const ip = dns.get(host);
      if (!ip) return cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }), []);
      cb(null, [{ address: ip, family: net.isIPv6(ip) ? 6 : 4 }]);
    };
    const { sb, a } = await sandbox({ webhookLookup: lookup });
    const reg = await a<{ id: number }>('POST', '/webhooks', { url: `https://hooks.example.net:${target.port}/h`, events: ['shipment.created'] });
    expect(reg.status).toBe(201);
    // DNS rebinding: the name now points at the sandbox's own machine.
    dns.set('hooks.example.net', '127.0.0.1');
    const shipped = await a('POST', '/shipments', { recipient: recipient(), packages: [pkg(2)], reference: 'SSRF-1' });
    expect(shipped.status).toBe(201);
    await sb.state.webhooks.dispatcher.idle();
    const log = sb.state.webhooks.deliveries.filter((d) => d.webhookId === reg.body.id);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ status: 'failed', responseCode: 0, nextRetryAt: null });
    expect(log[0]?.responseBody).toBe('Refused: hooks.example.net resolves to 127.0.0.1, a loopback address; webhooks are delivered to public addresses only');
    expect(sb.state.webhooks.dispatcher.pendingRetries()).toHaveLength(0);
    expect(target.connections()).toBe(0);
  });

  it('a name answering a public and a private address is refused (any local address refuses it)', async () => {
    const lookup = guardedLookup({
      allowLocalTargets: false,
      lookup: (_h, cb) =>
        cb(null, [
          { address: '93.184.216.34', family: 4 },
          { address: '10.0.0.7', family: 4 },
        ]),
    });
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) => lookup('mixed.example', { all: true }, (e) => resolve(e)));
    expect(err?.code).toBe('ERR_WEBHOOK_TARGET_REFUSED');
    expect(err?.message).toContain('10.0.0.7, a private-network address');
    const ok = await new Promise<unknown>((resolve) =>
      guardedLookup({ allowLocalTargets: false, lookup: (_h, cb) => cb(null, [{ address: '93.184.216.34', family: 4 }]) })('public.example', {}, (e, address) => resolve(e ?? address)),
    );
    expect(ok).toBe('93.184.216.34');
  });

  it('an endpoint stored before the rule (e.g. from a state file) with a local literal is not connected to either', async () => {
    const target = await listener();
    const out = await postWebhook(`https://127.0.0.1:${target.port}/h`, '{}', {}, 2_000, undefined, { allowLocalTargets: false });
    expect(out).toEqual({ ok: false, responseCode: 0, responseBody: 'Refused: 127.0.0.1 is a loopback address; webhooks are delivered to public addresses only', retryable: false });
    const mapped = await postWebhook(`https://[::ffff:127.0.0.1]:${target.port}/h`, '{}', {}, 2_000, undefined, { allowLocalTargets: false });
    expect(mapped.retryable).toBe(false);
    expect(target.connections()).toBe(0);
  });
});
