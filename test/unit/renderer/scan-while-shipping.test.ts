/** A scan while a shipment is being made does nothing more (issue 24 item 7): the label lands on its own order. */
import { describe, expect, it } from 'vitest';
import { sampleOrder } from '../../support/sample-order';

const order = (id: number, orderNumber: string) => sampleOrder(id, orderNumber);

describe('scanning while shipping', () => {
  it('the same order again, or another, leaves the order being shipped in place and says why', async () => {
    const { useOrders } = await import('../../../renderer/src/stores/orders');
    const { useJob } = await import('../../../renderer/src/stores/job');
    const { useApp } = await import('../../../renderer/src/stores/app');
    const first = order(1, '#1001');
    useJob.getState().startOrder(first);
    useJob.setState({ shipping: true });

    useOrders.getState().openForShipping(first);
    expect(useJob.getState().order?.id).toBe(1);
    expect(useJob.getState().shipping).toBe(true);
    expect(useApp.getState().banner?.title).toBe('Order #1001 is being shipped: its label comes in a moment');

    useOrders.getState().openForShipping(order(2, '#1002'));
    expect(useJob.getState().order?.id).toBe(1);
    expect(useApp.getState().banner?.title).toBe('Order #1001 is being shipped: scan #1002 again once its label is out');

    // Once the answer is in, the next order opens as usual.
    useJob.setState({ shipping: false });
    useOrders.getState().openForShipping(order(2, '#1002'));
    expect(useJob.getState().order?.id).toBe(2);
  });
});
