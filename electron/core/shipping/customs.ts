/**
 * `customs.*` and `deliveryPoints.*` commands (issue 10): customs codes
 * (GET /taric), the customs data remembered per SKU, the exporter/importer
 * identifiers kept in settings, and the carrier pickup-point search
 * (GET /delivery-points).
 */
import type { Handlers } from '../../../shared/contract/commands';
import { CustomsSettings } from '../../../shared/contract/customs';
import type { ShipmentRequest } from '../../../shared/platform';
import { defineSetting, type Store } from '../store';
import type { StationContext } from '../common/context';

const NO_IDS = { eori: null, vatNumber: null, taxId: null };

/** Setting `customs.identifiers`: exporter and default importer EORI/VAT/tax id. */
const CustomsIdentifiersSetting = defineSetting('customs.identifiers', CustomsSettings, { exporter: NO_IDS, importer: NO_IDS });

/** The account's customs identifiers (exporter, default importer) as saved in Settings. */
export function customsIdentifiers(store: Store): CustomsSettings {
  return store.settings.get(CustomsIdentifiersSetting);
}

/**
 * Learns from the commodities of a declaration that carry a SKU (HS code,
 * country of manufacture, description, unit weight = line weight / quantity,
 * in kg): a value not known yet is kept, a value that differs from the
 * product data becomes a suggestion the packer confirms (issue 24 item 3:
 * nothing is overwritten silently). Lines without SKU and values the
 * product data would refuse are skipped: learning never stops a shipment.
 * Returns how many suggestions were made.
 */
export function rememberCustomsProducts(store: Store, request: ShipmentRequest): number {
  const lines = request.customsDetail?.commodities ?? [];
  const seen = [];
  for (const c of lines) {
    const sku = c.sku?.trim();
    if (!sku) continue;
    const kg = c.weight.units === 'G' ? c.weight.value / 1000 : c.weight.value;
    const unitWeightKg = c.quantity > 0 && kg > 0 ? Math.round((kg / c.quantity) * 1000) / 1000 || undefined : undefined;
    seen.push({
      sku,
      description: c.description,
      ...(c.harmonizedCode ? { harmonizedCode: c.harmonizedCode } : {}),
      countryOfManufacture: c.countryOfManufacture,
      ...(unitWeightKg !== undefined ? { unitWeightKg } : {}),
    });
  }
  if (seen.length === 0) return 0;
  try {
    return store.customsProducts.learn(seen, `shipment ${request.reference ?? ''}`.trim());
  } catch {
    // The store refused (a full disk): the shipment goes on without learning.
    return 0;
  }
}

/** Handlers of the `customs` and `deliveryPoints` domains. */
export function createCustomsHandlers(ctx: StationContext) {
  const { store } = ctx;
  return {
    /** GET /taric: codes of 6 digits or more first (the declaration needs 6 to 10), then chapters and headings. */
    'customs.taric': async ({ q, limit }) => {
      const codes = await ctx.client.searchTaric(q, limit ?? 25);
      return [...codes].sort((a, b) => Number(b.code.length >= 6) - Number(a.code.length >= 6));
    },
    'customs.products': async ({ skus }) => store.customsProducts.getMany(skus),
    'customs.settings.get': async () => store.settings.get(CustomsIdentifiersSetting),
    'customs.settings.set': async (input) => store.settings.set(CustomsIdentifiersSetting, input),
    'deliveryPoints.search': async ({ city, postalCode, address }) => ctx.client.searchDeliveryPoints({ city, postalCode, ...(address ? { address } : {}) }),
  } satisfies Pick<Handlers, 'customs.taric' | 'customs.products' | 'customs.settings.get' | 'customs.settings.set' | 'deliveryPoints.search'>;
}
