/** Commands of pickups and manifests (close the day) (see ./index.ts for the contract as a whole). */
import { z } from 'zod';
import type { FieldErrors } from '../../platform';
import type { Pickup } from '../../platform/resources';
import { PickupForm } from '../pickup-form';
import type { ManifestView } from '../views';
import { command, Empty, Id, BoundedPickupRequest } from './define';

/** Commands of pickups and manifests (close the day). */
export const pickupsManifestsCommands = {
  /**
   * Books a pickup (POST /pickups via the outbox), from the packer's form as typed (Pickup screen,
   * issue 22 item 4: the core builds the request) or from the platform's PickupRequest as an integrator
   * builds it (`request`, sent as is); one of the two. @throws StationError `invalid_input` naming the
   * form's fields (`count`, `totalWeight`, `length`, `pickupDate`, ...) when the form is not complete, or
   * the request's (`request.packages.0.weight.value`); the platform's code with its `details` (folded onto
   * the form's fields for a form); nothing is sent on a bad form or request.
   */
  'pickups.book': command<Pickup>()(
    z
      .object({ form: PickupForm.optional(), request: BoundedPickupRequest.optional() })
      .strict()
      .refine((b) => (b.form === undefined) !== (b.request === undefined), { error: 'Give the pickup form or the platform request, one of the two', path: ['form'] }),
  ),
  /** The field errors of the pickup form, keyed by the form's own fields; empty when it would be accepted. Nothing is sent. */
  'pickups.check': command<FieldErrors>()(z.object({ form: PickupForm }).strict()),
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
