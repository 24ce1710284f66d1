/**
 * Bench `ship-form-check` (issue 22 item 4): what one edit of the Ship screen
 * costs in the core now that the screen no longer checks its own wire
 * request — the two `shipping.check` calls the screen sends after every edit
 * (for the quote, and for the shipment with the chosen rate), each input
 * parsed with the contract's schema as a transport's would be. The form is
 * the heaviest the bench sees: Switzerland (customs required), 3 parcels, 20
 * customs lines. In process, no transport; 500 runs after 50 warm-up.
 */
import { performance } from 'node:perf_hooks';
import { commands } from '../../shared/contract/commands';
import type { ShipFormInput } from '../../shared/contract/ship-form';
import { createShipFormHandlers } from '../../electron/core/shipping/ship-form';

const ids = { eori: 'IT12345678901', vatNumber: '', taxId: '' };

/** The bench's form: a Swiss recipient, 3 parcels, 20 customs lines, COD on. */
function heavyForm(): ShipFormInput {
  return {
    recipient: { name: 'Ruth Meier', company: '', street: 'Bahnhofstrasse 10', street2: '', city: 'Zürich', province: '', postalCode: '8001', countryCode: 'CH', phone: '+41 44 123 45 67', email: 'ruth@example.ch' },
    parcels: Array.from({ length: 3 }, () => ({ weight: '2,5', length: '40', width: '30', height: '30', box: 'M' })),
    reference: 'Bottega #9001',
    codEnabled: true,
    codAmount: '120,00',
    codMethod: 'cash',
    insuranceEnabled: false,
    insuranceAmount: '',
    notes: 'Citofono Meier',
    customs: {
      currency: 'EUR', customsValue: '200,00', incoterm: 'DAP', dutiesPayment: 'RECIPIENT', contentType: 'MERCHANDISE', exportReason: 'SALE', invoiceNumber: 'F-1', invoiceDate: '2026-11-20',
      exporter: ids, importer: { eori: '', vatNumber: 'CHE123456789', taxId: '' },
      commodities: Array.from({ length: 20 }, (_, i) => ({ sku: `SKU-${i}`, description: `Prodotto ${i}`, quantity: '1', unitValue: '10,00', weight: '0,3', originCountry: 'IT', hsCode: '691200', quantityUnits: 'PCS', midCode: '' })),
    },
    deliveryPoint: null,
  };
}

/** Runs the bench and prints its JSON line and a human line; `quantile` is the bench's nearest-rank quantile. */
export async function benchShipFormCheck(quantile: (sorted: number[], q: number) => number): Promise<void> {
  const h = createShipFormHandlers(async () => []);
  const schema = commands['shipping.check'].input;
  const rate = { carrierCode: 'brt', contractCode: 'BRT-STD', cashOnDeliveryMethods: { cash: 'Contanti' } };
  // As a transport delivers it: JSON text, parsed, then the contract's schema.
  const quoteRaw = JSON.stringify({ form: heavyForm(), for: 'quote' });
  const shipRaw = JSON.stringify({ form: heavyForm(), for: 'ship', rate });
  const samples: number[] = [];
  for (let i = 0; i < 550; i++) {
    const t0 = performance.now();
    const [q, s] = await Promise.all([h['shipping.check'](schema.parse(JSON.parse(quoteRaw))), h['shipping.check'](schema.parse(JSON.parse(shipRaw)))]);
    if (i >= 50) samples.push(performance.now() - t0);
    if (Object.keys(q).length || Object.keys(s).length) throw new Error(`bench form should be valid: ${JSON.stringify({ ...q, ...s })}`);
  }
  samples.sort((a, b) => a - b);
  const r3 = (n: number) => Number(n.toFixed(3));
  console.log(JSON.stringify({ bench: 'ship-form-check', parcels: 3, customsLines: 20, runs: samples.length, p50Ms: r3(quantile(samples, 0.5)), p95Ms: r3(quantile(samples, 0.95)) }));
  console.log(`ship form check (quote + ship, 3 parcels, 20 customs lines): median ${quantile(samples, 0.5).toFixed(3)} ms p95 ${quantile(samples, 0.95).toFixed(3)} ms per edit, without the transport`);
}
