import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../electron/sandbox/index';
import { Paginated } from '../../../shared/platform/common';
import { CreatedShipment, Shipment } from '../../../shared/platform/resources';
import { MONDAY_2026_09_14, pkg, recipient, start, type Caller, type ErrorBody } from './helpers';

const ShipmentList = Paginated(Shipment);
const DAY = 86_400_000;

describe('sandbox GET /shipments: filters, period and pagination envelope', () => {
  let sb: Sandbox;
  let a: Caller;
  const created: Array<ReturnType<typeof CreatedShipment.parse>> = [];

  beforeAll(async () => {
    ({ sb, a } = await start({ clock: MONDAY_2026_09_14 }));
    // One old shipment (40 days ago), then seven today with varied data.
    sb.clock.advance(-40 * DAY);
    const old = await a('POST', '/shipments', { recipient: recipient({}, 'Vecchio Cliente'), packages: [pkg(1)], reference: 'OLD-1' });
    created.push(CreatedShipment.parse(old.body));
    sb.clock.advance(40 * DAY);
    const bodies = [
      { recipient: recipient(), packages: [pkg(1)], reference: 'ORD-1' },
      { recipient: recipient({ city: 'Palermo', postalCode: '90133', province: 'PA' }, 'Salvo Greco'), packages: [pkg(1)], reference: 'ORD-2', options: { cod: { amount: 40 } } },
      { recipient: recipient({ city: 'Roma', postalCode: '00184', province: 'RM' }, 'Anna Verdi'), packages: [pkg(2)], reference: 'ORD-3', carrierCode: 'gls' },
      { recipient: recipient(), packages: [pkg(1)], reference: 'ORD-4', options: { insurance: { amount: 500 } } },
      { recipient: { name: 'Hans Müller', address: { street: 'Hauptstr. 5', city: 'Berlin', postalCode: '10115', countryCode: 'DE' } }, packages: [pkg(1)], reference: 'ORD-5' },
      { recipient: recipient(), packages: [pkg(1)], reference: 'ORD-6', serviceType: 'SDA-STD' },
      { recipient: recipient(), packages: [pkg(1)], reference: 'ord-7' },
    ];
    for (const body of bodies) {
      sb.clock.advance(60_000);
      const r = await a('POST', '/shipments', body);
      expect(r.status).toBe(201);
      created.push(CreatedShipment.parse(r.body));
    }
  });
  afterAll(async () => {
    await sb.close();
  });

  async function list(query: string) {
    const r = await a('GET', `/shipments${query}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return ShipmentList.parse(r.body);
  }

  it('lists the last 30 days by default, newest first', async () => {
    const l = await list('');
    expect(l.meta.total).toBe(7);
    expect(l.data.map((s) => s.reference)).toEqual(['ord-7', 'ORD-6', 'ORD-5', 'ORD-4', 'ORD-3', 'ORD-2', 'ORD-1']);
    const withOld = await list('?from=2026-08-01');
    expect(withOld.meta.total).toBe(8);
    const onlyOld = await list('?from=2026-08-01&to=2026-08-31');
    expect(onlyOld.data.map((s) => s.reference)).toEqual(['OLD-1']);
  });

  it('builds the envelope: links, meta, from/to', async () => {
    const p1 = await list('?per_page=3');
    expect(p1.meta).toEqual({ current_page: 1, last_page: 3, per_page: 3, total: 7, from: 1, to: 3 });
    expect(p1.links.prev).toBeNull();
    const next = new URL(p1.links.next!);
    expect(next.origin + next.pathname).toBe(`${sb.baseUrl}/shipments`);
    expect(next.searchParams.get('page')).toBe('2');
    expect(next.searchParams.get('per_page')).toBe('3');
    expect(new URL(p1.links.last!).searchParams.get('page')).toBe('3');
    expect(new URL(p1.links.first!).searchParams.get('page')).toBe('1');

    // Following the links walks every item once.
    const seen: string[] = [];
    let url: string | null = p1.links.first;
    while (url) {
      const r = await a('GET', url.slice(sb.baseUrl.length));
      const page = ShipmentList.parse(r.body);
      seen.push(...page.data.map((s) => s.trackingNumber));
      url = page.links.next;
    }
    expect(seen).toEqual((await list('')).data.map((s) => s.trackingNumber));

    const p3 = await list('?per_page=3&page=3');
    expect(p3.meta).toMatchObject({ current_page: 3, from: 7, to: 7 });
    expect(p3.links.next).toBeNull();
    const beyond = await list('?per_page=3&page=9');
    expect(beyond.data).toEqual([]);
    expect(beyond.meta).toMatchObject({ current_page: 9, last_page: 3, from: null, to: null });

    const empty = await list('?reference=none');
    expect(empty.meta).toEqual({ current_page: 1, last_page: 1, per_page: 50, total: 0, from: null, to: null });
  });

  it.each([
    ['per_page=0', 'per_page'],
    ['per_page=201', 'per_page'],
    ['per_page=abc', 'per_page'],
    ['per_page=2.5', 'per_page'],
    ['page=0', 'page'],
    ['from=2026-13-01', 'from'],
    ['from=2026-02-30', 'from'],
    ['from=2026-09-10&to=2026-09-01', 'to'],
    ['countryCode=ITA', 'countryCode'],
    ['status=lost', 'status'],
    ['status=42', 'status'],
    ['hasCod=maybe', 'hasCod'],
  ])('answers 422 for %s', async (query, key) => {
    const r = await a<ErrorBody>('GET', `/shipments?${query}`);
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('validation_failed');
    expect(r.body.error.details).toHaveProperty([key]);
  });

  it('accepts per_page 1 and 200', async () => {
    expect((await list('?per_page=1')).data).toHaveLength(1);
    expect((await list('?per_page=200')).meta.per_page).toBe(200);
  });

  it.each([
    ['status=shipped', 7],
    ['status=2', 7],
    ['status=in_transit,delivered', 0],
    ['status=processing,2', 7],
    ['carrierCode=gls', 2], // ORD-3 and the German ORD-5 (first quote: GLS EuroBusinessParcel)
    ['carrierCode=GLS', 2],
    ['serviceType=SDA-STD', 1],
    ['reference=ORD-3', 1],
    ['reference=ORD-7', 1],
    ['recipientName=greco', 1],
    ['city=palermo', 1],
    ['postalCode=00184', 1],
    ['countryCode=de', 1],
    ['countryCode=IT', 6],
    ['hasCod=true', 1],
    ['hasCod=false', 6],
    ['hasInsurance=1', 1],
    ['storeId=5', 0],
  ])('filters %s', async (query, count) => {
    const l = await list(`?${query}`);
    expect(l.meta.total).toBe(count);
  });

  it('filters by a shipment or package tracking number', async () => {
    const s = created[1]!;
    const l = await list(`?trackingNumber=${s.trackingNumber}`);
    expect(l.data.map((x) => x.trackingNumber)).toEqual([s.trackingNumber]);
  });
});
