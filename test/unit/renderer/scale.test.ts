/** Renderer side of the scale: header text, which parcel a weight goes to, stable-only filling and re-quote. */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ScaleView } from '../../../shared/contract';
import { useApp } from '../../../renderer/src/stores/app';
import { useJob } from '../../../renderer/src/stores/job';
import { parcelToWeigh, readingText, useScale } from '../../../renderer/src/stores/scale';

const view = (reading: ScaleView['reading'], over: Partial<ScaleView> = {}): ScaleView => ({
  config: { kind: 'hid' },
  requoteOnStable: true,
  connected: true,
  name: 'Dymo M25',
  reading,
  problem: null,
  ...over,
});

describe('scale texts', () => {
  it('says the reading, motion, limits and "no scale"', () => {
    expect(readingText(view({ status: 'stable', kg: 1.23, decimals: 3 }))).toBe('1.230 kg');
    expect(readingText(view({ status: 'motion', kg: 1.1, decimals: 3 }))).toBe('1.100 kg (moving)');
    expect(readingText(view({ status: 'over_capacity', kg: null, decimals: 0 }))).toBe('OVER CAPACITY');
    expect(readingText(view({ status: 'under_zero', kg: -0.02, decimals: 3 }))).toBe('UNDER ZERO');
    expect(readingText(view(null, { connected: false, name: null }))).toBe('not connected');
    expect(readingText(view(null, { config: { kind: 'none' }, connected: false }))).toBe('none');
    expect(readingText(view(null, { connected: false, problem: 'node-hid missing' }))).toBe('unavailable');
  });
  it('weighs the only parcel, else the first without weight, else the last', () => {
    expect(parcelToWeigh(['2'])).toBe(0);
    expect(parcelToWeigh(['2', '', ''])).toBe(1);
    expect(parcelToWeigh(['2', '3'])).toBe(1);
    expect(parcelToWeigh([])).toBe(-1);
  });
});

describe('scale store', () => {
  let quote: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    useJob.getState().startBlank();
    useScale.setState({ scale: null, applied: null });
    quote = vi.fn(async () => true);
    useJob.setState({ quote } as never);
    useApp.setState({ screen: 'quote' });
  });

  it('only a stable positive weight fills the parcel, once, and re-quotes on Quote', () => {
    const s = useScale.getState();
    s.changed(view({ status: 'motion', kg: 1.1, decimals: 3 }));
    expect(useJob.getState().draft.parcels[0]!.weight).toBe('');
    s.changed(view({ status: 'stable', kg: 1.23, decimals: 3 }));
    expect(useJob.getState().draft.parcels[0]!.weight).toBe('1.230');
    expect(quote).toHaveBeenCalledTimes(1);
    // The packer corrects the weight by hand while the box sits still: kept.
    useJob.getState().setParcel(0, 'weight', '1.5');
    s.changed(view({ status: 'stable', kg: 1.23, decimals: 3 }));
    expect(useJob.getState().draft.parcels[0]!.weight).toBe('1.5');
    s.changed(view({ status: 'over_capacity', kg: null, decimals: 0 }));
    s.changed(view({ status: 'zero', kg: 0, decimals: 3 }));
    expect(useJob.getState().draft.parcels[0]!.weight).toBe('1.5');
    // Box off, box on again: a new weighing.
    s.changed(view({ status: 'stable', kg: 1.23, decimals: 3 }));
    expect(useJob.getState().draft.parcels[0]!.weight).toBe('1.230');
    expect(quote).toHaveBeenCalledTimes(2);
  });

  it('does not re-quote when the setting is off or off the Quote screen', () => {
    useScale.getState().changed(view({ status: 'stable', kg: 2, decimals: 3 }, { requoteOnStable: false }));
    expect(useJob.getState().draft.parcels[0]!.weight).toBe('2.000');
    useApp.setState({ screen: 'ship' });
    useScale.getState().changed(view({ status: 'stable', kg: 2.5, decimals: 3 }));
    expect(useJob.getState().draft.parcels[0]!.weight).toBe('2.500');
    expect(quote).not.toHaveBeenCalled();
  });
});
