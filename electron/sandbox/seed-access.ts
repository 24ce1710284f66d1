/**
 * Demo clients that exist to show the spec's 402 and 403 answers (spec:
 * Access requirements; Errors 402/403). Each has a working App (a token is
 * issued), one BRT contract and one pickup point, so reads work and only the
 * rule it illustrates refuses calls. The rules themselves live in access.ts;
 * the table of clients and answers is in electron/sandbox/README.md
 * ("Limits and access").
 */
import type { AccessDef, AccountSeed, SubscriptionDef } from './model';

/** Plan of the demo clients: no monthly shipment limit. */
export const BUSINESS_PLAN: SubscriptionDef = { status: 'active', plan: 'business', monthlyShipmentLimit: null };

/** Shipments per calendar month of the `starter` plan (the spec does not show the value; the sandbox's choice). */
export const STARTER_PLAN_MONTHLY_SHIPMENTS = 100;

interface RestrictedSpec {
  accountId: number;
  slug: string;
  name: string;
  companyName: string;
  warehouseId: number;
  city: string;
  province: string;
  postalCode: string;
  street: string;
  subscription?: SubscriptionDef;
  access?: AccessDef;
}

/** One small client: a BRT national contract (cash COD), one default pickup point, 100.00 EUR prepaid. */
function restricted(r: RestrictedSpec): AccountSeed {
  const clientId = r.slug;
  return {
    accountId: r.accountId,
    clientId,
    clientSecret: `sandbox-secret-${r.slug}-2026`,
    name: r.name,
    companyName: r.companyName,
    credit: { balance: 100, currency: 'EUR', prepaid: true },
    legacyApiKey: `sbx-legacy-${r.slug}`,
    ...(r.subscription ? { subscription: { ...r.subscription } } : {}),
    ...(r.access ? { access: { ...r.access } } : {}),
    warehouses: [
      {
        id: r.warehouseId,
        name: `Sede ${r.city}`,
        senderName: r.companyName,
        address: { street: r.street, city: r.city, province: r.province, postalCode: r.postalCode, countryCode: 'IT' },
        phone: '+39 02 0000 0000',
        email: `spedizioni@${r.slug}.example`,
        isDefault: true,
        freePickup: false,
      },
    ],
    carriers: [
      {
        carrierCode: 'brt',
        carrierName: 'BRT',
        canManageStocks: true,
        canRequestPickup: true,
        trackingPrefix: 'BR',
        volumetricDivisor: 5000,
        fuelSurchargePct: 11.5,
        pickupFee: 6.0,
        codFee: { fixed: 2.5, pct: 1.0 },
        insuranceFee: { pct: 0.6, min: 3.0 },
        services: [],
        logoUrl: null,
        contracts: [
          {
            contractCode: `BRT-NAZ-${r.accountId}`,
            contractName: 'BRT Espresso Nazionale',
            level: 1,
            slave: false,
            paused: false,
            multiParcel: true,
            cashOnDeliveryMethods: { cash: 'Contanti' },
            codTypes: { cash: 'BM' },
            maxParcelKg: 50,
            prices: {
              italy: [
                { maxKg: 2, price: 6.9 },
                { maxKg: 5, price: 8.1 },
                { maxKg: 10, price: 9.9 },
                { maxKg: 30, price: 16.5 },
              ],
            },
            overPerKg: 0.35,
            remoteAreaSurcharge: 0,
          },
        ],
      },
    ],
  };
}

/**
 * The six access-demo clients, after the two demo clients (so `clients[0]`
 * and `clients[1]` stay Bottega Verdi and Ceramiche Rossi):
 * 3101 no subscription, 3102 subscription payment failed, 3103 starter plan
 * at its monthly limit, 3104 disabled client, 3105 App of an operator user,
 * 3106 Enterprise client with 2 validated documents.
 */
export function accessDemoAccounts(): AccountSeed[] {
  const base = { city: 'Milano', province: 'MI' };
  return [
    restricted({
      ...base,
      accountId: 3101,
      slug: 'trattoria-blu-nosub',
      name: 'Trattoria Blu – senza abbonamento',
      companyName: 'Trattoria Blu S.a.s.',
      warehouseId: 101,
      street: 'Via Padova 44',
      postalCode: '20127',
      subscription: { status: 'none', plan: 'none', monthlyShipmentLimit: null },
    }),
    restricted({
      ...base,
      accountId: 3102,
      slug: 'ferramenta-gialli-payfail',
      name: 'Ferramenta Gialli – pagamento non riuscito',
      companyName: 'Ferramenta Gialli S.r.l.',
      warehouseId: 102,
      street: 'Viale Monza 210',
      postalCode: '20128',
      subscription: { status: 'payment_failed', plan: 'business', monthlyShipmentLimit: null },
    }),
    restricted({
      ...base,
      accountId: 3103,
      slug: 'libreria-neri-limit',
      name: 'Libreria Neri – piano starter esaurito',
      companyName: 'Libreria Neri S.n.c.',
      warehouseId: 103,
      street: 'Corso di Porta Romana 61',
      postalCode: '20122',
      subscription: {
        status: 'active',
        plan: 'starter',
        monthlyShipmentLimit: STARTER_PLAN_MONTHLY_SHIPMENTS,
        otherShipmentsThisMonth: STARTER_PLAN_MONTHLY_SHIPMENTS,
      },
    }),
    restricted({
      ...base,
      accountId: 3104,
      slug: 'vetreria-viola-disabled',
      name: 'Vetreria Viola – cliente disattivato',
      companyName: 'Vetreria Viola S.p.A.',
      warehouseId: 104,
      street: 'Via Ripamonti 155',
      postalCode: '20141',
      subscription: BUSINESS_PLAN,
      access: { disabled: true },
    }),
    restricted({
      ...base,
      accountId: 3105,
      slug: 'magazzini-grigi-operator',
      name: 'Magazzini Grigi – App di un operatore',
      companyName: 'Magazzini Grigi S.r.l.',
      warehouseId: 105,
      street: 'Via Gallarate 90',
      postalCode: '20151',
      subscription: BUSINESS_PLAN,
      access: { userRole: 'operator' },
    }),
    restricted({
      ...base,
      accountId: 3106,
      slug: 'enoteca-rosa-enterprise',
      name: 'Enoteca Rosa – documenti da validare',
      companyName: 'Enoteca Rosa S.r.l.',
      warehouseId: 106,
      street: 'Via Vigevano 8',
      postalCode: '20144',
      subscription: BUSINESS_PLAN,
      access: { enterprise: true, validatedDocuments: 2 },
    }),
  ];
}
