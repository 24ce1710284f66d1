/** Issue 35: an order another bench of the warehouse is packing is said from a metre away, and not opened for shipping here. */
import { describe, expect, it } from 'vitest';
import type { CommandInput, CommandName, StationApi } from '../../../shared/contract';
import { StationError } from '../../../shared/contract/errors';
import { sampleOrder } from '../../support/sample-order';

describe('scanning an order packed at another bench', () => {
  it('says which bench, which packer and since when, in both languages, and leaves the job as it was', async () => {
    const { setStation } = await import('../../../renderer/src/api');
    const { useScan } = await import('../../../renderer/src/stores/scan');
    const { useJob } = await import('../../../renderer/src/stores/job');
    const { useApp } = await import('../../../renderer/src/stores/app');
    const { setLanguage } = await import('../../../renderer/src/lib/i18n');
    const order = sampleOrder(7, '#5001');
    const api: StationApi = {
      invoke: (async (name: CommandName, _input: CommandInput<CommandName>) => {
        if (name === 'scan.resolve') return { kind: 'order', order, claimedBy: { bench: 'Bench 1', packer: 'Anna', since: '2026-11-28T09:41:00.000Z' } };
        throw new StationError('unknown_command', name);
      }) as StationApi['invoke'],
      on: () => () => {},
    };
    setStation(api);
    useJob.getState().startBlank();
    await setLanguage('en');
    await useScan.getState().scan('#5001');
    expect(useApp.getState().banner).toMatchObject({ kind: 'warn', title: 'Order #5001 is being packed at Bench 1 by Anna since 10:41' });
    expect(useJob.getState().order).toBeNull();
    await setLanguage('it');
    await useScan.getState().scan('#5001');
    expect(useApp.getState().banner?.title).toBe('L’ordine #5001 è in imballaggio al Bench 1, operatore Anna, dalle 10:41');
    await setLanguage('en');
  });
});
