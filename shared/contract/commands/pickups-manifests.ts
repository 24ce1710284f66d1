/** Commands of pickups and manifests (close the day) (see ./index.ts for the contract as a whole). */
import { z } from 'zod';
import type { Pickup } from '../../platform/resources';
import type { ManifestView } from '../views';
import { command, Empty, Id, BoundedPickupRequest } from './define';

/** Commands of pickups and manifests (close the day). */
export const pickupsManifestsCommands = {
  /** Book a pickup (POST /pickups via the outbox). */
  'pickups.create': command<Pickup>()(BoundedPickupRequest),
  /** Booked pickups, newest first. */
  'pickups.list': command<Pickup[]>()(Empty),

  /** Close the day: one manifest per contract for every unmanifested shipment (POST /manifests). */
  'manifests.closeDay': command<ManifestView[]>()(Empty),
  /** Manifests created by this station, newest first. */
  'manifests.list': command<ManifestView[]>()(Empty),
  /** The manifest PDF as base64 (to save or print). */
  'manifests.pdf': command<{ id: number; fileName: string; pdfBase64: string }>()(
    z.object({ id: Id('Manifest id') }),
  ),
} as const;
