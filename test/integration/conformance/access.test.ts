/**
 * Conformance: access requirements (spec: What the service does > Access
 * requirements; Authentication 6; Errors 402/403). The seeded access-demo
 * clients (seed-access.ts) each break one requirement; the sandbox's choice
 * of which endpoint yields which code is in access.ts and the README
 * ("Limits and access"): 403 on every API call, 402 on POST /shipments,
 * POST /pickups and POST /webhooks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSeed, type Sandbox } from '../../../electron/sandbox/index';
import { STARTER_PLAN_MONTHLY_SHIPMENTS } from '../../../electron/sandbox/seed-access';
import { MONDAY_2026_09_14, caller, pkg, recipient, requestToken, start, tokenFor, type Caller, type ErrorBody } from '../sandbox/helpers';
import { advance } from './admin-client';

const shipmentBody = { recipient: recipient(), packages: [pkg(1)] };
const pickupBody = { pickupDate: '2026-09-15', packages: [pkg(2)] };
const webhookBody = { url: 'https://receiver.example/hooks', events: ['tracking.update'] };

describe('access requirements: 402 and 403', () => {
  let sb: Sandbox;
  let a: Caller;
  beforeAll(async () => {
    ({ sb, a } = await start({ clock: MONDAY_2026_09_14 }));
  });
  afterAll(async () => {
    await sb.close();
  });

  it('keeps the two demo clients first and fully working', async () => {
    expect(sb.clients.slice(0, 2).map((c) => c.clientId)).toEqual(['bottega-verdi-station', 'ceramiche-rossi-shop']);
    expect((await a('POST', '/shipments', shipmentBody)).status).toBe(201);
    expect((await a('POST', '/pickups', { ...pickupBody, serviceType: 'BRT-EXP-NAZ' })).status).toBe(201);
    expect((await a('POST', '/webhooks', webhookBody)).status).toBe(201);
  });

  describe('403: token issued, every API call refused', () => {
    const cases = [
      ['vetreria-viola-disabled', 'account_disabled'],
      ['magazzini-grigi-operator', 'client_role_required'],
      ['enoteca-rosa-enterprise', 'forbidden'],
    ] as const;
    for (const [clientId, code] of cases) {
      it(`${clientId} -> 403 ${code} on reads, writes and costly calls`, async () => {
        const call = caller(sb, await tokenFor(sb, clientId));
        for (const [method, path, body] of [
          ['GET', '/carriers'],
          ['GET', '/shipments'],
          ['GET', '/credit'],
          ['POST', '/rates', { recipient: { address: { postalCode: '20123', countryCode: 'IT' } }, packages: [pkg(1)] }],
          ['POST', '/shipments', shipmentBody],
          ['DELETE', '/shipments/BR0000000000'],
        ] as const) {
          const r = await call<ErrorBody>(method, path, body);
          expect(r.status, `${method} ${path}`).toBe(403);
          expect(r.body.error.code, `${method} ${path}`).toBe(code);
        }
      });
    }

    it('a token issued for scope panel-read -> 403 insufficient_scope on the API; an unknown scope is refused at the token endpoint', async () => {
      const c = sb.clients[0]!;
      const t = await requestToken(sb, { grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret, scope: 'panel-read' });
      expect(t.status).toBe(200);
      expect((t.body as { scope: string }).scope).toBe('panel-read');
      const call = caller(sb, (t.body as { access_token: string }).access_token);
      for (const path of ['/carriers', '/shipments', '/credit']) {
        const r = await call<ErrorBody>('GET', path);
        expect(r.status).toBe(403);
        expect(r.body.error.code).toBe('insufficient_scope');
      }
      const both = await tokenFor(sb, c.clientId, 'client-api panel-read');
      expect((await caller(sb, both)('GET', '/carriers')).status).toBe(200);
      const unknown = await requestToken(sb, { grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret, scope: 'admin' });
      expect(unknown.status).toBe(403);
      expect((unknown.body as ErrorBody).error.code).toBe('insufficient_scope');
    });

    it('401 comes before 403: no token is unauthenticated whoever asks', async () => {
      const r = await caller(sb, undefined)<ErrorBody>('GET', '/carriers');
      expect(r.status).toBe(401);
      expect(r.body.error.code).toBe('unauthenticated');
    });
  });

  describe('402: only the endpoints that cost, and webhook registration', () => {
    const cases = [
      ['trattoria-blu-nosub', 'subscription_required'],
      ['ferramenta-gialli-payfail', 'subscription_payment_failed'],
    ] as const;
    for (const [clientId, code] of cases) {
      it(`${clientId} -> 402 ${code} on POST /shipments, /pickups, /webhooks; reads and quotes work`, async () => {
        const call = caller(sb, await tokenFor(sb, clientId));
        const carriers = await call<{ data: Array<{ contracts: Array<{ contractCode: string }> }> }>('GET', '/carriers');
        expect(carriers.status).toBe(200);
        const contract = carriers.body.data[0]!.contracts[0]!.contractCode;
        const rates = await call<{ data: unknown[] }>('POST', '/rates', { recipient: { address: { postalCode: '20123', countryCode: 'IT' } }, packages: [pkg(1)] });
        expect(rates.status).toBe(200);
        expect(rates.body.data.length).toBeGreaterThan(0);
        for (const [path, body] of [
          ['/shipments', shipmentBody],
          ['/pickups', { ...pickupBody, serviceType: contract }],
          ['/webhooks', webhookBody],
        ] as const) {
          const r = await call<ErrorBody>('POST', path, body);
          expect(r.status, path).toBe(402);
          expect(r.body.error.code, path).toBe(code);
        }
        expect((await call<{ meta: { total: number } }>('GET', '/shipments')).body.meta.total).toBe(0);
        expect((await call('GET', '/webhooks')).status).toBe(200);
        // 402 comes before validation: even an empty body is refused for the subscription.
        expect((await call('POST', '/shipments', {})).status).toBe(402);
      });
    }

    it(`libreria-neri-limit (starter plan, ${STARTER_PLAN_MONTHLY_SHIPMENTS} used) -> 402 plan_limit_reached on POST /shipments only`, async () => {
      const call = caller(sb, await tokenFor(sb, 'libreria-neri-limit'));
      const r = await call<ErrorBody>('POST', '/shipments', shipmentBody);
      expect(r.status).toBe(402);
      expect(r.body.error.code).toBe('plan_limit_reached');
      const contract = (await call<{ data: Array<{ contracts: Array<{ contractCode: string }> }> }>('GET', '/carriers')).body.data[0]!.contracts[0]!.contractCode;
      expect((await call('POST', '/pickups', { ...pickupBody, serviceType: contract })).status).toBe(201);
      expect((await call('POST', '/webhooks', webhookBody)).status).toBe(201);
    });
  });
});

describe('plan limit: shipments of the calendar month (Europe/Rome)', () => {
  it('counts API shipments of the month with those made elsewhere, and frees the quota in the next month', async () => {
    const seed = demoSeed();
    const verdi = seed.accounts[0]!;
    verdi.subscription = { status: 'active', plan: 'starter', monthlyShipmentLimit: 3, otherShipmentsThisMonth: 1 };
    // 2026-09-30 20:00 Europe/Rome.
    const { sb, a } = await start({ seed, clock: () => new Date('2026-09-30T18:00:00Z') });
    try {
      expect((await a('POST', '/shipments', shipmentBody)).status).toBe(201);
      expect((await a('POST', '/shipments', shipmentBody)).status).toBe(201);
      const third = await a<ErrorBody>('POST', '/shipments', shipmentBody);
      expect(third.status).toBe(402);
      expect(third.body.error.code).toBe('plan_limit_reached');
      // Cancelling does not give the quota back (the shipments were made).
      const list = await a<{ data: Array<{ trackingNumber: string }> }>('GET', '/shipments');
      expect((await a('DELETE', `/shipments/${list.body.data[0]!.trackingNumber}`)).status).toBe(200);
      expect((await a('POST', '/shipments', shipmentBody)).status).toBe(402);
      // 2026-10-01 00:30 in Rome: a new month; only the 1 made elsewhere counts.
      await advance(sb, { hours: 4, minutes: 30 });
      const fresh = caller(sb, await tokenFor(sb, verdi.clientId));
      expect((await fresh('POST', '/shipments', shipmentBody)).status).toBe(201);
      expect((await fresh('POST', '/shipments', shipmentBody)).status).toBe(201);
      expect((await fresh('POST', '/shipments', shipmentBody)).status).toBe(402);
    } finally {
      await sb.close();
    }
  });

  it('lets a seed without subscription or access fields through every check', async () => {
    const seed = demoSeed();
    for (const acc of seed.accounts) {
      delete acc.subscription;
      delete acc.access;
    }
    const { sb, a } = await start({ seed, clock: MONDAY_2026_09_14 });
    try {
      expect((await a('POST', '/shipments', shipmentBody)).status).toBe(201);
    } finally {
      await sb.close();
    }
  });
});
