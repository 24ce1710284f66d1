/**
 * `manifests.*` commands: closing the day. POST /manifests goes through the
 * outbox; the manifests come back one per contract with their PDF, which is
 * stored as received.
 */
import type { Handlers } from '../../../shared/contract/commands';
import { StationError } from '../../../shared/contract/errors';
import type { ManifestView } from '../../../shared/contract/views';
import { coreText } from '../../../shared/contract/core-text';
import { romeClock, romeDay } from '../../../shared/domain/rome-day';
import { manifestInput, type ManifestCreatePayload } from './executor';
import type { ManifestRecord, OutboxRecord } from '../store';
import { emitAppChanged } from '../account/app';
import type { ContextWithoutOutbox, StationContext } from '../common/context';
import { manifestContractName, manifestContractNames, manifestView } from './views';

/** After manifests were stored (foreground or background send): tell the screens, build the views. */
export async function afterManifestsCreated(
  ctx: ContextWithoutOutbox,
  row: OutboxRecord<ManifestCreatePayload>,
  stored: ManifestRecord[],
): Promise<ManifestView[]> {
  ctx.events.emit('manifests.changed', { ids: stored.map((m) => m.platformId) });
  for (const trackingNumber of row.payload.trackingNumbers) ctx.events.emit('shipments.changed', { trackingNumber });
  emitAppChanged(ctx);
  return stored.map((m) => manifestView(m, manifestContractName(ctx.store, m)));
}

/**
 * The answer of a bench in a warehouse to End of day: where the day is closed, and the warehouse's last close
 * (time in Italy, shipments) when it can be read. `invalid_state`, its sentence in the bench's language.
 */
async function closedByWarehouse(ctx: StationContext): Promise<StationError> {
  const last = await ctx.warehouse.lastClose();
  const said = last
    ? coreText('dayClosedByWarehouseLast', { time: romeClock(Date.parse(last.at)), date: romeDay(Date.parse(last.at)).split('-').reverse().join('/'), count: last.shipments })
    : coreText('dayClosedByWarehouse');
  return new StationError('invalid_state', said.message, undefined, said.text);
}

/** Handlers of the `manifests` domain. */
export function createManifestsHandlers(ctx: StationContext) {
  const { store } = ctx;
  return {
    /**
     * Closes the day: first any manifest request still queued, then one
     * POST /manifests with every local unmanifested shipment's tracking number.
     * Resolves with the manifests created (empty when nothing was left to close).
     * @throws StationError with the platform's code, or `offline`/`timeout` (the request stays queued).
     */
    'manifests.closeDay': async () => {
      // In a warehouse the day closes once for every bench, on the supervisor's page (issue 43 item 4).
      if (ctx.warehouse.configured) throw await closedByWarehouse(ctx);
      const out: ManifestView[] = [];
      const queued = store.outbox.list({ kind: 'manifest.create', states: ['queued'] }).reverse();
      for (const row of queued) out.push(...(await ctx.outbox.process<ManifestView[]>(row.id)));
      const trackingNumbers = store.shipments
        .listUnmanifested()
        .map((s) => s.trackingNumber)
        .filter((t): t is string => t !== null);
      if (trackingNumbers.length === 0) return out;
      const payload: ManifestCreatePayload = { trackingNumbers };
      const row = store.outbox.enqueue({ kind: 'manifest.create', payload, localRef: `manifest:${ctx.now()}` });
      emitAppChanged(ctx);
      out.push(...(await ctx.outbox.process<ManifestView[]>(row.id)));
      return out;
    },
    /** Manifests created by this station, newest first. */
    'manifests.list': async () => {
      const manifests = store.manifests.list();
      const names = manifestContractNames(store, manifests);
      return manifests.map((m, i) => manifestView(m, names[i] ?? null));
    },
    /**
     * The manifest PDF (base64) by the platform's manifest id; fetched once with
     * GET /manifests/{id}?pdf=true when not stored.
     * @throws StationError `not_found_locally` for a manifest this station did not create.
     */
    'manifests.pdf': async ({ id }) => {
      const rec = store.manifests.getByPlatformId(id);
      if (!rec) throw new StationError('not_found_locally', `Manifest ${id} was not created by this station`);
      let bytes = store.manifests.getPdf(rec.id);
      if (!bytes) {
        const m = await ctx.client.getManifest(id, true);
        if (!m.pdf) throw new StationError('not_found', `The platform has no PDF for manifest ${id}`);
        store.manifests.save(manifestInput(m));
        bytes = store.manifests.getPdf(rec.id);
      }
      if (!bytes) throw new StationError('not_found_locally', `No PDF stored for manifest ${id}`);
      return { id, fileName: `manifest-${id}.pdf`, pdfBase64: Buffer.from(bytes).toString('base64') };
    },
  } satisfies Pick<Handlers, 'manifests.closeDay' | 'manifests.list' | 'manifests.pdf'>;
}
