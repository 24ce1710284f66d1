/**
 * Manifests, closing the day (spec: Endpoints > Manifests; States: "POST
 * /manifests: shipment of the client not yet in a manifest -> enters the
 * manifest of its contract; it can no longer be cancelled"):
 * - `POST /manifests` `{shipmentIds}` or `{trackingNumbers}` -> 201 `{data: Manifest[]}`,
 *   one manifest per contract, each with its base64 `pdf`. Shipments of other
 *   clients, unknown, cancelled or already manifested ones are left out; when
 *   none is left the answer is 404 `not_found`.
 * - `GET /manifests?from&to` -> paginated, default last 30 days, newest first.
 * - `GET /manifests/{id}?pdf=true` -> Manifest, with `pdf` only when asked.
 */
import { ManifestRequest } from '../../../shared/platform/resources';
import { notFound, parseOrThrow } from '../errors';
import { inPeriod, paginate, pathId, queryBool, readPeriod, type ApiRouter } from '../http';
import type { ManifestRecord, ShipmentRecord } from '../model';
import { ceilKg, round2 } from '../pricing';
import { localIso } from '../time';
import { manifestView } from '../views';
import { labelAddress } from '../shipment-records';

/** Registers the manifest routes. */
export function registerManifestRoutes(r: ApiRouter): void {
  r.post('/manifests', async ({ state, account, body, now }) => {
    const req = parseOrThrow(ManifestRequest, body);
    const picked: ShipmentRecord[] = [];
    const seen = new Set<number>();
    const take = (s: ShipmentRecord | undefined) => {
      if (!s || s.accountId !== account.accountId || s.cancelledAt || s.manifestId !== null || seen.has(s.id)) return;
      seen.add(s.id);
      picked.push(s);
    };
    for (const id of req.shipmentIds ?? []) take(state.shipments.find((s) => s.id === id));
    for (const trackingNumber of req.trackingNumbers ?? []) {
      const s = state.shipmentByTracking(account, trackingNumber);
      take(s && s.trackingNumber === trackingNumber.toUpperCase() ? s : undefined);
    }
    if (picked.length === 0) {
      throw notFound('None of the given shipments can enter a manifest: they are unknown, cancelled or already in a manifest');
    }

    const byContract = new Map<string, ShipmentRecord[]>();
    for (const s of picked) {
      const list = byContract.get(s.contractCode) ?? [];
      list.push(s);
      byContract.set(s.contractCode, list);
    }
    // Render every PDF before changing state, so a failure leaves no half-closed day.
    const created: ManifestRecord[] = [];
    const { renderManifestPdf } = await import('../labels/manifest');
    for (const [contractCode, shipments] of byContract) {
      const first = shipments[0];
      if (!first) continue;
      const id = state.nextManifestId();
      const totalCost = round2(shipments.reduce((sum, s) => sum + s.cost.total, 0));
      const pdf = await renderManifestPdf({
        manifestId: id,
        carrierName: first.carrierName,
        contractName: first.contractName,
        contractCode,
        createdAt: localIso(now),
        sender: labelAddress(first.sender),
        shipments: shipments.map((s) => ({
          trackingNumber: s.trackingNumber,
          ...(s.reference ? { reference: s.reference } : {}),
          recipientName: s.recipient.name,
          city: s.recipient.address.city,
          countryCode: s.recipient.address.countryCode,
          parcels: s.packages.length,
          weightKg: ceilKg(s.packages.reduce((w, p) => w + p.weightKg, 0)),
          ...(s.cod ? { codAmount: s.cod.amount } : {}),
          cost: s.cost.total,
        })),
        totalCost,
        currency: 'EUR',
      });
      created.push({
        id,
        accountId: account.accountId,
        carrierCode: first.carrierCode,
        carrierName: first.carrierName,
        contractCode,
        contractName: first.contractName,
        shipmentIds: shipments.map((s) => s.id),
        trackingNumbers: shipments.map((s) => s.trackingNumber),
        totalCost,
        createdAt: now,
        pdf: Buffer.from(pdf).toString('base64'),
      });
    }
    for (const m of created) {
      state.manifests.push(m);
      for (const id of m.shipmentIds) {
        const s = state.shipments.find((x) => x.id === id);
        if (s) {
          s.manifestId = m.id;
          state.touch(s);
        }
      }
    }
    return { status: 201, body: { data: created.map((m) => manifestView(m, true)) } };
  });

  r.get('/manifests', ({ state, account, query, now, req }) => {
    const period = readPeriod(query, now);
    const items = state.manifests
      .filter((m) => m.accountId === account.accountId && inPeriod(m.createdAt, period))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id)
      .map((m) => manifestView(m, false));
    return { body: paginate(req, query, items) };
  });

  r.get('/manifests/:id', ({ state, account, params, query }) => {
    const id = pathId(params.id, `Manifest ${params.id}`);
    const m = state.manifests.find((x) => x.id === id && x.accountId === account.accountId);
    if (!m) throw notFound(`Manifest ${id} not found`);
    return { body: manifestView(m, queryBool(query, 'pdf') ?? false) };
  });
}
