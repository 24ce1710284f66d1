/**
 * Outbox rows `pickup.create`: POST /pickups (spec: Endpoints > Pickups),
 * which may cost money and has no reference field to look a booking up by.
 *
 * Before sending a row again after an earlier attempt, the executor lists
 * the platform's pickups of that date (GET /pickups) and looks for one with
 * the same contract, date and time window that no local record holds: one
 * match is adopted, none means nothing was booked, several mean the station
 * cannot tell and the packer must check (`needs_attention`), rather than
 * risking a second paid booking.
 */
import type { Pickup, PickupRequest } from '../../../shared/platform/resources';
import type { z } from 'zod';
import type { PlatformClient } from '../platform/client-api';
import type { OutboxRecord, Store } from '../store';
import { OutboxAttention } from '../outbox/press-errors';
import type { OutboxExecutor } from '../outbox/worker';
import { coreText } from '../../../shared/contract/core-text';

/** Payload of a `pickup.create` row: the parsed POST /pickups body and its local record. */
export interface PickupCreatePayload {
  localPickupId: number;
  request: z.output<typeof PickupRequest>;
}

/** What the platform gave. */
export interface PickupSent {
  pickup: Pickup;
  adopted: boolean;
}

/** Dependencies of {@link createPickupExecutor}. */
export interface PickupExecutorDeps {
  store: Store;
  client: PlatformClient;
  /** After the booking was stored (events). */
  after?: (row: OutboxRecord<PickupCreatePayload>, pickup: Pickup) => void;
}

/**
 * Pickups on the platform matching a booking request and not held locally.
 * @throws PlatformError from GET /pickups.
 */
async function findMatchingPickups(client: PlatformClient, store: Store, request: PickupCreatePayload['request']): Promise<Pickup[]> {
  const out: Pickup[] = [];
  for (let page = 1; page <= 5; page++) {
    const res = await client.listPickups({ from: request.pickupDate, to: request.pickupDate, per_page: 200, page });
    for (const p of res.data) {
      if (p.serviceType !== undefined && p.serviceType !== request.serviceType) continue;
      if (p.pickupDate !== undefined && p.pickupDate !== request.pickupDate) continue;
      if (p.pickupTime !== undefined && p.pickupTime !== request.pickupTime) continue;
      if (store.pickups.getByPlatformId(p.id)) continue;
      out.push(p);
    }
    if (res.meta.current_page >= res.meta.last_page) break;
  }
  return out;
}

/** Executor of `pickup.create` rows; the outcome is the platform's Pickup. */
export function createPickupExecutor(deps: PickupExecutorDeps): OutboxExecutor<PickupCreatePayload, PickupSent, Pickup, Pickup> {
  const { store, client } = deps;
  return {
    async send(row) {
      const { request } = row.payload;
      if (row.attempts > 1) {
        const matches = await findMatchingPickups(client, store, request);
        if (matches.length === 1 && matches[0]) return { pickup: matches[0], adopted: true };
        if (matches.length > 1) {
          const said = coreText('pickupMaybeBooked', { count: matches.length, contract: request.serviceType, date: request.pickupDate });
          throw new OutboxAttention('invalid_state', said.message, said.text);
        }
      }
      return { pickup: await client.createPickup(request), adopted: false };
    },
    commit(row, sent) {
      const p = sent.pickup;
      store.pickups.markBooked(row.payload.localPickupId, {
        platformId: p.id,
        pickupId: p.pickupId,
        costTotal: p.cost.total,
        currency: p.cost.currency,
        platform: p,
      });
      return { local: p, result: { id: p.id, pickupId: p.pickupId, adopted: sent.adopted } };
    },
    async after(row, pickup) {
      deps.after?.(row, pickup);
      return pickup;
    },
    onAttention(row, error) {
      const rec = store.pickups.get(row.payload.localPickupId);
      if (rec && rec.state !== 'booked') store.pickups.markFailed(rec.id, `${error.code}: ${error.message}`);
    },
  };
}
