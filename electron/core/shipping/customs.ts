/**
 * `customs.*` and `deliveryPoints.*` commands (issue 10): HS code search
 * (`customs.hsCodes.search`: the station's products, then GET /taric), the
 * customs data remembered per SKU, the exporter/importer identifiers kept in
 * settings, and the carrier pickup-point search (GET /delivery-points). The
 * station says `hsCode`/`originCountry`; the wire's `harmonizedCode`/
 * `countryOfManufacture` are read here only from the request sent.
 */
import type { Handlers } from '../../../shared/contract/commands';
import { CustomsSettings } from '../../../shared/contract/customs';
import type { ShipmentRequest } from '../../../shared/platform';
import type { HsSuggestion } from '../../../shared/contract/customs';
import { hasWord, queryWords, searchableWords } from '../../../shared/domain/search-words';
import { defineSetting, type Store } from '../store';
import type { StationContext } from '../common/context';
import { sharedKey } from '../common/services';
import { productView } from '../products/views';

const NO_IDS = { eori: null, vatNumber: null, taxId: null };

/** Setting `customs.identifiers`: exporter and default importer EORI/VAT/tax id. */
const CustomsIdentifiersSetting = defineSetting('customs.identifiers', CustomsSettings, { exporter: NO_IDS, importer: NO_IDS });

/** The account's customs identifiers (exporter, default importer) as saved in Settings. */
export function customsIdentifiers(store: Store): CustomsSettings {
  return store.settings.get(CustomsIdentifiersSetting);
}

/**
 * Learns from the commodities of a declaration that carry a SKU (HS code,
 * country of origin, description, unit weight = line weight / quantity,
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
      // The wire's names (spec: Customs > Commodity) to the station's.
      ...(c.harmonizedCode ? { hsCode: c.harmonizedCode } : {}),
      originCountry: c.countryOfManufacture,
      ...(unitWeightKg !== undefined ? { unitWeightKg } : {}),
    });
  }
  if (seen.length === 0) return 0;
  try {
    return store.products.learn(seen, `shipment ${request.reference ?? ''}`.trim());
  } catch {
    // The store refused (a full disk): the shipment goes on without learning.
    return 0;
  }
}

/** Products looked at for suggestions: the most recently declared. */
const PRODUCTS_SEARCHED = 2000;
/** Suggestions from the station's own products, at most. */
const PRODUCT_SUGGESTIONS = 5;

/**
 * HS codes the station's product data already holds for items like `q`
 * (`products`, most recently declared first): a product whose
 * description has every word of `q` (folded, singular or plural, as
 * shared/domain/search-words.ts says), or whose HS code starts with `q`'s
 * digits. One suggestion per code, naming the SKU it was declared for; at most
 * {@link PRODUCT_SUGGESTIONS}.
 */
export function productSuggestions(store: Store, q: string): HsSuggestion[] {
  const digits = q.replace(/[\s.]/g, '');
  const byDigits = /^\d+$/.test(digits);
  const words = byDigits ? [] : queryWords(q);
  const out: HsSuggestion[] = [];
  for (const p of store.products.withHsCode(PRODUCTS_SEARCHED)) {
    const code = p.hsCode;
    if (code === null || out.some((s) => s.code === code)) continue;
    const own = byDigits ? [] : searchableWords(p.description);
    const similar = byDigits ? code.startsWith(digits) : words.length > 0 && words.every((w) => hasWord(own, w));
    if (!similar) continue;
    out.push({ code, description: p.description, descriptionEn: null, sku: p.sku });
    if (out.length >= PRODUCT_SUGGESTIONS) break;
  }
  return out;
}

/** Handlers of the `customs` and `deliveryPoints` domains. */
export function createCustomsHandlers(ctx: StationContext) {
  const { store } = ctx;
  return {
    /**
     * The codes the station's products already hold for similar items first
     * ({@link productSuggestions}), then GET /taric's: codes of 6 digits or
     * more first (the declaration needs 6 to 10), then chapters and headings.
     */
    'customs.hsCodes.search': async ({ q, limit }) => {
      const codes = await ctx.client.searchTaric(q, limit ?? 25);
      const own = productSuggestions(store, q);
      const platform = [...codes].sort((a, b) => Number(b.code.length >= 6) - Number(a.code.length >= 6));
      return [...own, ...platform.filter((c) => !own.some((o) => o.code === c.code))];
    },
    'customs.products': async ({ skus }) => store.products.getMany(skus).map(productView),
    'customs.settings.get': async () => store.settings.get(CustomsIdentifiersSetting),
    'customs.settings.set': async (input) => {
      await ctx.warehouse.share([{ key: sharedKey.setting(CustomsIdentifiersSetting.key), value: input }]);
      return store.settings.set(CustomsIdentifiersSetting, input);
    },
    'deliveryPoints.search': async ({ city, postalCode, address }) => ctx.client.searchDeliveryPoints({ city, postalCode, ...(address ? { address } : {}) }),
  } satisfies Pick<Handlers, 'customs.hsCodes.search' | 'customs.products' | 'customs.settings.get' | 'customs.settings.set' | 'deliveryPoints.search'>;
}
