/**
 * The Ship screen's form goes to the core (issue 22 item 4), the renderer's
 * side: an edit asks `shipping.check` and shows the core's field errors; an
 * older answer arriving after a newer one is dropped; a double Ctrl+Enter
 * while the form is being checked ships once, by `shipping.shipOrder` with
 * the form as typed and the chosen rate. The core's answers are the real
 * checks (electron/core/shipping/ship-form.ts), held until the test lets them go.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandInput, CommandName, StationApi } from '../../../shared/contract';
import { StationError } from '../../../shared/contract/errors';
import type { Rate } from '../../../shared/platform';
import { createShipFormHandlers } from '../../../electron/core/shipping/ship-form';
import { setStation } from '../../../renderer/src/api';
import { useApp } from '../../../renderer/src/stores/app';
import { useJob } from '../../../renderer/src/stores/job';
import { sampleOrder } from '../../support/sample-order';

const core = createShipFormHandlers(async () => []);

const order = sampleOrder(7);

const rate = { carrierCode: 'gls', contractCode: 'GLS-ECO', carrierName: 'GLS', contractName: 'Economy', cashOnDeliveryMethods: {}, price: { total: 5.64, currency: 'EUR' }, services: [] } as unknown as Rate;

const RESULT = {
  shipment: { trackingNumber: 'GL1234567890', reference: '#7', carrier: { name: 'GLS', contractName: 'Economy' }, cost: { amount: 5.64, currency: 'EUR' }, printJobs: [] },
  printJob: { id: 1, state: 'printed', lastError: null },
  printError: null,
  shippedElsewhere: false,
};

/** A `shipping.check` asked by the store, answered when the test releases it. */
interface Held {
  input: CommandInput<'shipping.check'>;
  release: () => Promise<void>;
}

let held: Held[];
let calls: Array<{ name: string; input: unknown }>;

/** Lets every promise chain already resolved run to its end (no timer waited for: a turn of the event loop). */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

beforeEach(() => {
  held = [];
  calls = [];
  const api: StationApi = {
    invoke: (async (name: CommandName, input: CommandInput<CommandName>) => {
      calls.push({ name, input });
      if (name === 'shipping.check') {
        const check = input as CommandInput<'shipping.check'>;
        let release!: () => void;
        const gate = new Promise<void>((resolve) => {
          release = resolve;
        });
        held.push({ input: check, release: async () => { release(); await settled(); } });
        await gate;
        // As over a transport: JSON in, the core's real check.
        const parsed = JSON.parse(JSON.stringify(check)) as CommandInput<'shipping.check'>;
        return core['shipping.check']({ form: parsed.form, for: parsed.for, rate: parsed.rate ?? null });
      }
      if (name === 'shipping.shipOrder') return RESULT;
      throw new StationError('unknown_command', name);
    }) as StationApi['invoke'],
    on: () => () => {},
  };
  setStation(api);
  useJob.getState().startOrder(order);
  useApp.setState({ screen: 'ship' });
});

afterEach(() => {
  useJob.getState().startBlank();
});

describe('the Ship screen sends its form; the core checks it', () => {
  it('an edit shows the core’s field errors, and an older answer arriving last is dropped', async () => {
    useJob.getState().setParcel(0, 'weight', 'abc');
    useJob.getState().setParcel(0, 'weight', '1,5');
    expect(held.map((h) => h.input.form.parcels[0]?.weight)).toEqual(['abc', 'abc', '1,5', '1,5']);
    // The newer edit's answers first, then the older ones.
    for (const h of held.slice(2)) await h.release();
    const newer = useJob.getState().shipErrors;
    expect(newer['packages.0.weight.value']).toBeUndefined();
    for (const h of held.slice(0, 2)) await h.release();
    expect(useJob.getState().shipErrors).toEqual(newer);
    // A field the core names: the weight as junk.
    useJob.getState().setParcel(0, 'weight', 'abc');
    for (const h of held.slice(4)) await h.release();
    expect(useJob.getState().shipErrors['packages.0.weight.value']?.[0]).toMatch(/number/i);
    expect(useJob.getState().quoteErrors['packages.0.weight.value']?.[0]).toMatch(/number/i);
  });

  it('a double Ctrl+Enter during the check ships once, with the form as typed and the chosen rate', async () => {
    useJob.setState((s) => ({ chosen: rate, draft: { ...s.draft, parcels: [{ weight: '1,5', length: '30', width: '20', height: '15', box: 'M' }] } }));
    const first = useJob.getState().ship();
    const second = useJob.getState().ship();
    expect(await second).toBe(false);
    expect(held).toHaveLength(1);
    await held[0]!.release();
    expect(await first).toBe(true);
    const ships = calls.filter((c) => c.name === 'shipping.shipOrder');
    expect(ships).toHaveLength(1);
    expect(ships[0]!.input).toMatchObject({ orderId: 7, form: { parcels: [{ weight: '1,5', length: '30' }], reference: '#7' }, rate: { carrierCode: 'gls', contractCode: 'GLS-ECO', cashOnDeliveryMethods: {} } });
    // The form, never the platform's request written by the screen.
    expect(calls.some((c) => typeof c.input === 'object' && c.input !== null && 'request' in c.input)).toBe(false);
  });
});
