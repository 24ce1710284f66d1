/**
 * Who did it, around every command (issue 26): a wrapper over the handler
 * map that
 * - keeps the packer's session alive (and signs an idle packer out);
 * - asks for a supervisor before a command that changes money or devices
 *   ({@link SUPERVISOR_COMMANDS}), when the station has packers;
 * - reads a scan as a packer's badge before anything else (`scan.resolve`
 *   answers `{kind: 'packer'}` and that packer is signed in at once);
 * - records print, reprint, verify mismatch, void, pickup,
 *   manifest and order scans in `activity` with the packer and the station.
 * The domains' handlers stay unaware of packers.
 */
import type { Handlers, ScanResult, ShipResult } from '../../../shared/contract/commands';
import type { ManifestView, PrintJobView } from '../../../shared/contract/views';
import type { Store } from '../store';
import type { PackerSession } from './session';

/** Commands that change money or devices: rules, printers, scale, slip printer, platform account, packers, the station. */
const SUPERVISOR_COMMANDS: ReadonlySet<string> = new Set([
  'warehouse.closeDay',
  'printers.set',
  'printers.profile.set',
  'scales.set',
  'slips.settings.set',
  'account.settings.set',
  'account.settings.forget',
  'packers.save',
  'packers.remove',
  'packers.setStation',
  'reports.settings.set',
  // Shipping rules choose contracts and options (money); product data sets weights and customs values.
  'rules.import',
  'rules.save',
  'rules.move',
  'rules.setEnabled',
  'rules.follow',
  'products.importCsv',
  'products.follow',
  // Which warehouse the bench joins, and its password.
  'warehouse.connection.set',
  // How long a silent bench keeps its claims, for the whole warehouse (issue 35).
  'warehouse.settings.set',
]);

/** Background reads that do not count as the packer being at the bench. */
const NOT_ACTIVITY: ReadonlySet<string> = new Set(['app.info', 'credit.get', 'packers.session', 'scales.get', 'storage.get']);

type AnyHandler = (input: unknown) => Promise<unknown>;

/** Options of {@link withPackers}. */
export interface WithPackersOptions {
  /** Called after `manifests.closeDay` succeeded (the day report's auto-save); its failure never fails the close. */
  afterCloseDay?: (created: ManifestView[]) => Promise<void>;
}

/** Wraps `handlers` (see file comment); returns a new map of the same commands. */
export function withPackers(handlers: Handlers, store: Store, session: PackerSession, opts: WithPackersOptions = {}): Handlers {
  const record = (action: Parameters<Store['activity']['record']>[0]['action'], extra: { trackingNumber?: string | null; orderId?: number | null; subject?: string | null } = {}): void => {
    store.activity.record({ action, ...session.who(), ...extra });
  };
  const wrapped: Record<string, AnyHandler> = {};
  for (const [name, handler] of Object.entries(handlers) as Array<[string, AnyHandler]>) {
    wrapped[name] = async (input: unknown) => {
      if (!NOT_ACTIVITY.has(name)) session.touch();
      if (SUPERVISOR_COMMANDS.has(name)) session.requireSupervisor(name);
      if (name === 'scan.resolve') {
        const code = (input as { code: string }).code.trim();
        const badge = store.packers.any() ? store.packers.byBadge(code) : undefined;
        if (badge) {
          session.signIn(badge);
          return { kind: 'packer', packer: badge } satisfies ScanResult;
        }
      }
      const out = await handler(input);
      afterSuccess(name, input, out);
      if (name === 'manifests.closeDay' && opts.afterCloseDay) {
        // The manifests exist: a report that cannot be saved is logged, never a failed close.
        await opts.afterCloseDay(out as ManifestView[]).catch((e: unknown) => console.error(`station: the day report was not saved at day close: ${e instanceof Error ? e.message : String(e)}`));
      }
      return out;
    };
  }

  function afterSuccess(name: string, input: unknown, out: unknown): void {
    switch (name) {
      case 'scan.resolve': {
        const r = out as ScanResult;
        if (r.kind === 'order') record('scan', { orderId: r.order.id });
        break;
      }
      case 'shipping.shipOrder': {
        const r = out as ShipResult;
        if (r.shippedElsewhere) break;
        // The `ship` row is written with the shipment itself (executors.ts), now or when the queue sends it.
        if (r.printJob) record('print', { trackingNumber: r.shipment.trackingNumber, subject: `print job ${r.printJob.id}` });
        break;
      }
      case 'labels.reprint':
        record('reprint', { trackingNumber: (input as { trackingNumber: string }).trackingNumber });
        break;
      case 'printJobs.printShrunk': {
        // Who said to print a label too long for the stock shrunk (issue 36): the job's note says it was the packer's word.
        const job = out as PrintJobView;
        record('print', { trackingNumber: job.trackingNumber, subject: `print job ${job.id} shrunk at the packer's word` });
        break;
      }
      case 'verify.skip':
        record('verify', { orderId: (input as { orderId: number }).orderId, subject: 'skipped' });
        break;
      case 'verify.mismatch': {
        const m = input as { orderId: number; code: string; kind: string };
        record('verify', { orderId: m.orderId, subject: `${m.kind} ${m.code}` });
        break;
      }
      case 'shipments.cancel':
        record('void', { trackingNumber: (input as { trackingNumber: string }).trackingNumber });
        break;
      case 'pickups.book':
        record('pickup', { subject: `pickup ${String((out as { id?: unknown }).id ?? '')}` });
        break;
      case 'manifests.closeDay': {
        const created = out as ManifestView[];
        if (created.length) record('manifest', { subject: `manifests ${created.map((m) => m.id).join(', ')}` });
        break;
      }
    }
  }
  return wrapped as unknown as Handlers;
}
