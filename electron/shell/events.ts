/**
 * Runtime list of the station's event names, shared by both transports (the
 * headless host's `GET /events` and Electron main's push channel) so each
 * subscribes to every event of the contract. The type checks below fail to
 * compile when `StationEvents` gains or loses a name and this list does not.
 */
import type { EventName } from '../../shared/contract';

/** Every key of `StationEvents` (shared/contract/commands/), once. */
export const STATION_EVENT_NAMES = [
  'app.changed',
  'shipments.changed',
  'printJobs.changed',
  'orders.changed',
  'manifests.changed',
  'pickups.changed',
  'outbox.changed',
  'stocks.changed',
  'scales.changed',
  'slips.changed',
  'imports.changed',
  'rules.changed',
  'products.changed',
  'packers.changed',
  'settings.changed',
] as const satisfies readonly EventName[];

// Compile-time completeness: every EventName must be in the list.
type Missing = Exclude<EventName, (typeof STATION_EVENT_NAMES)[number]>;
const _complete: [Missing] extends [never] ? true : Missing = true;
void _complete;
