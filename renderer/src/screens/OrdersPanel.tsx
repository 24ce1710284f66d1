/**
 * Orders panel (on the Scan screen): the order list, virtualised
 * (@tanstack/react-virtual: only the visible rows are in the DOM, pages of
 * 100 are fetched from the core as they scroll into view), searched by
 * number, name, city or SKU and filtered by shop, country, shipping method,
 * unpaid and needs-fix in SQLite; the Shopify CSV import for a shop with its
 * report (order, spreadsheet row and column of every problem, what was left
 * as it was and why); the manual order form; and the dialogs that open an
 * order for shipping (complete a missing postal code, confirm an unpaid
 * order, choose between shops sharing a number). Each part is its own
 * module under screens/orders/: OrderList, ImportCard, ManualOrderCard,
 * OrderDialogs.
 */
import { useEffect } from 'react';
import { useOrders } from '../stores/orders';
import { ImportCard } from './orders/ImportCard';
import { ManualOrderCard } from './orders/ManualOrderCard';
import { ChoiceDialog, FixDialog, UnpaidDialog } from './orders/OrderDialogs';
import { OrderList } from './orders/OrderList';

/** Order list, CSV import and manual order, side by side; the shipping dialogs. */
export function OrdersPanel() {
  const { load, loadFacets, loadSettings } = useOrders();
  useEffect(() => {
    void load();
    void loadFacets();
    void loadSettings();
  }, [load, loadFacets, loadSettings]);
  return (
    <div className="orders-grid orders-grid-wide">
      <OrderList />
      <div className="orders-side">
        <ImportCard />
        <ManualOrderCard />
      </div>
      <FixDialog />
      <UnpaidDialog />
      <ChoiceDialog />
    </div>
  );
}
