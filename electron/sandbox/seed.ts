/**
 * Demo data of the sandbox: two Italian accounts (two clients, for tenancy),
 * each with carriers, contracts, price lists, pickup points and prepaid credit.
 * Names are plausible, prices invented; secrets are fixed so training
 * sessions are reproducible (listed in electron/sandbox/README.md).
 */
import type { AccountSeed, CarrierDef, ContractDef, SandboxSeed, WeightBand, ZoneId } from './model';
import { accessDemoAccounts, BUSINESS_PLAN } from './seed-access';
import { rossiHistory, verdiHistory } from './history';
import { rossiCatalog, verdiCatalog } from './orders';

/** Bands from `[maxKg, priceEUR]` pairs, scaled by `factor` (zone multiplier) and rounded to cents. */
function bands(pairs: ReadonlyArray<readonly [number, number]>, factor = 1): WeightBand[] {
  return pairs.map(([maxKg, price]) => ({ maxKg, price: Math.round(price * factor * 100) / 100 }));
}

/** Price list of a contract: the same bands in each zone, times the zone's factor. */
function priceList(pairs: ReadonlyArray<readonly [number, number]>, zones: Partial<Record<ZoneId, number>>): ContractDef['prices'] {
  const out: ContractDef['prices'] = {};
  for (const [zone, factor] of Object.entries(zones) as Array<[ZoneId, number]>) out[zone] = bands(pairs, factor);
  return out;
}

const COD_ALL = { cash: 'Contanti', check: 'Assegno bancario', cashier_check: 'Assegno circolare' };
const COD_TYPES_BRT = { cash: 'BM', check: 'AB', cashier_check: 'AC' };

const NATIONAL_EXPRESS: ReadonlyArray<readonly [number, number]> = [
  [2, 6.4], [5, 7.6], [10, 9.2], [20, 12.4], [30, 15.8], [50, 21.5], [100, 34.0],
];
const NATIONAL_ECONOMY: ReadonlyArray<readonly [number, number]> = [
  [3, 5.2], [5, 6.1], [10, 7.4], [20, 10.3], [30, 13.1], [50, 18.9], [100, 29.5],
];
const EUROPE: ReadonlyArray<readonly [number, number]> = [
  [2, 14.9], [5, 18.5], [10, 24.0], [20, 33.5], [30, 42.0], [50, 61.0],
];
const INTERNATIONAL: ReadonlyArray<readonly [number, number]> = [
  [0.5, 18.0], [1, 21.5], [2, 26.0], [5, 39.0], [10, 58.0], [20, 92.0], [30, 121.0],
];
const EXPRESS_WW: ReadonlyArray<readonly [number, number]> = [
  [0.5, 29.0], [1, 34.0], [2, 42.0], [5, 63.0], [10, 95.0], [20, 149.0], [30, 196.0], [70, 360.0],
];

function brt(contracts: ContractDef[]): CarrierDef {
  return {
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
    services: [
      { serviceId: 101, serviceCode: 'FLOOR', serviceName: 'Consegna al piano', price: 6.5 },
      { serviceId: 102, serviceCode: 'CALL', serviceName: 'Preavviso telefonico', price: 1.2 },
      { serviceId: 103, serviceCode: 'SAT', serviceName: 'Consegna di sabato', price: 15.0 },
    ],
    contracts,
    logoUrl: null,
  };
}

function gls(contracts: ContractDef[]): CarrierDef {
  return {
    carrierCode: 'gls',
    carrierName: 'GLS Italy',
    canManageStocks: true,
    canRequestPickup: true,
    trackingPrefix: 'GL',
    volumetricDivisor: 5000,
    fuelSurchargePct: 8.5,
    pickupFee: 4.5,
    codFee: { fixed: 2.0, pct: 1.5 },
    insuranceFee: { pct: 0.8, min: 2.5 },
    services: [
      { serviceId: 201, serviceCode: 'SMS', serviceName: 'Avviso SMS/e-mail', price: 0.4 },
      { serviceId: 202, serviceCode: 'APPT', serviceName: 'Consegna su appuntamento', price: 3.5 },
    ],
    contracts,
    logoUrl: null,
  };
}

/** The two demo accounts. Returns fresh objects on every call (the sandbox mutates its copy). */
function demoAccounts(): AccountSeed[] {
  const verdi: AccountSeed = {
    accountId: 1017,
    clientId: 'bottega-verdi-station',
    clientSecret: 'sandbox-secret-bottega-verdi-2026',
    name: 'Bottega Verdi – banco spedizioni',
    companyName: 'Bottega Verdi S.r.l.',
    credit: { balance: 500.0, currency: 'EUR', prepaid: true },
    subscription: { ...BUSINESS_PLAN },
    legacyApiKey: 'sbx-legacy-bottega-verdi-7f3c9a21',
    catalog: verdiCatalog(),
    history: verdiHistory(),
    warehouses: [
      {
        id: 1,
        name: 'Magazzino Milano',
        senderName: 'Bottega Verdi S.r.l.',
        address: { street: 'Via dei Missaglia 97', city: 'Milano', province: 'MI', postalCode: '20142', countryCode: 'IT' },
        phone: '+39 02 8942 1170',
        email: 'magazzino@bottegaverdi.example',
        isDefault: true,
        freePickup: false,
      },
      {
        id: 2,
        name: 'Deposito Bologna',
        senderName: 'Bottega Verdi S.r.l.',
        address: { street: 'Via del Lavoro 12', city: 'Bologna', province: 'BO', postalCode: '40127', countryCode: 'IT' },
        phone: '+39 051 633 2250',
        email: 'bologna@bottegaverdi.example',
        isDefault: false,
        freePickup: true,
      },
    ],
    carriers: [
      brt([
        {
          contractCode: 'BRT-EXP-NAZ',
          contractName: 'BRT Espresso Nazionale',
          level: 1,
          slave: false,
          paused: false,
          multiParcel: true,
          cashOnDeliveryMethods: { ...COD_ALL },
          codTypes: { ...COD_TYPES_BRT },
          maxParcelKg: 50,
          prices: priceList(NATIONAL_EXPRESS, { italy: 1, italy_calabria_sicily: 1.2, italy_sardinia: 1.3, italy_minor_islands: 1 }),
          overPerKg: 0.3,
          remoteAreaSurcharge: 9.0,
        },
        {
          contractCode: 'BRT-PRIO-1030',
          contractName: 'BRT Priority 10:30',
          level: 1,
          slave: false,
          paused: false,
          multiParcel: false,
          cashOnDeliveryMethods: { cash: 'Contanti' },
          codTypes: { cash: 'BM' },
          maxParcelKg: 30,
          prices: priceList(NATIONAL_EXPRESS, { italy: 1.6 }),
          overPerKg: 0.5,
          remoteAreaSurcharge: 0,
        },
        {
          contractCode: 'BRT-EURO',
          contractName: 'BRT Euro Express',
          level: 1,
          slave: false,
          paused: true,
          multiParcel: true,
          cashOnDeliveryMethods: {},
          codTypes: {},
          maxParcelKg: 50,
          prices: priceList(EUROPE, { eu_1: 1, eu_2: 1.25 }),
          overPerKg: 1.1,
          remoteAreaSurcharge: 0,
        },
      ]),
      gls([
        {
          // Secondary level-1 reseller contract: the platform hands out an opaque (encrypted) code.
          contractCode: 'eyJjIjoiZ2xzLWVjbyIsInIiOjE3fQ.c2xhdmU',
          contractName: 'GLS Economy (rivendita)',
          level: 1,
          slave: true,
          paused: false,
          multiParcel: true,
          cashOnDeliveryMethods: { cash: 'Contanti', check: 'Assegno bancario' },
          codTypes: { cash: 'CONT', check: 'ASSB' },
          maxParcelKg: 30,
          prices: priceList(NATIONAL_ECONOMY, { italy: 1, italy_calabria_sicily: 1.25, italy_sardinia: 1.35 }),
          overPerKg: 0.25,
          remoteAreaSurcharge: 0,
          // The reseller's contract includes GLS's automatic return: a return LDV and label with every shipment.
          automaticReturn: true,
        },
        {
          contractCode: 'GLS-EBP',
          contractName: 'GLS EuroBusinessParcel',
          level: 2,
          slave: false,
          paused: false,
          multiParcel: true,
          cashOnDeliveryMethods: {},
          codTypes: {},
          maxParcelKg: 40,
          prices: priceList(EUROPE, { eu_1: 0.95, eu_2: 1.2 }),
          overPerKg: 1.0,
          remoteAreaSurcharge: 0,
        },
      ]),
      {
        carrierCode: 'sda',
        carrierName: 'Poste Delivery Business (SDA)',
        canManageStocks: true,
        canRequestPickup: false,
        trackingPrefix: 'SD',
        volumetricDivisor: 4000,
        fuelSurchargePct: 6.5,
        pickupFee: 0,
        codFee: { fixed: 3.5, pct: 0.5 },
        insuranceFee: { pct: 1.0, min: 5.0 },
        services: [{ serviceId: 301, serviceCode: 'PIANO', serviceName: 'Consegna al piano', price: 4.0 }],
        contracts: [
          {
            contractCode: 'SDA-STD',
            contractName: 'Poste Delivery Standard',
            level: 1,
            slave: false,
            paused: false,
            multiParcel: false,
            cashOnDeliveryMethods: { cash: 'Contanti', cashier_check: 'Assegno circolare' },
            codTypes: { cash: 'C', cashier_check: 'AC' },
            maxParcelKg: 30,
            prices: priceList(NATIONAL_ECONOMY, { italy: 1.05, italy_calabria_sicily: 1.05, italy_sardinia: 1.05, italy_minor_islands: 1.05 }),
            overPerKg: 0.4,
            remoteAreaSurcharge: 0,
          },
          {
            contractCode: 'SDA-INTL',
            contractName: 'Poste Delivery International',
            level: 1,
            slave: false,
            paused: false,
            multiParcel: false,
            cashOnDeliveryMethods: {},
            codTypes: {},
            maxParcelKg: 30,
            prices: priceList(INTERNATIONAL, { eu_1: 0.8, eu_2: 0.9, europe_non_eu: 1.1, world: 1.6 }),
            overPerKg: 4.0,
            remoteAreaSurcharge: 0,
          },
        ],
        logoUrl: null,
      },
      {
        carrierCode: 'dhl',
        carrierName: 'DHL Express',
        canManageStocks: false,
        canRequestPickup: true,
        trackingPrefix: 'DH',
        volumetricDivisor: 5000,
        fuelSurchargePct: 24.0,
        pickupFee: 0,
        codFee: { fixed: 0, pct: 0 },
        insuranceFee: { pct: 1.2, min: 6.0 },
        services: [
          { serviceId: 401, serviceCode: 'SIG', serviceName: 'Firma diretta del destinatario', price: 3.0 },
          { serviceId: 402, serviceCode: 'SAT', serviceName: 'Consegna di sabato', price: 18.0 },
        ],
        contracts: [
          {
            contractCode: 'DHL-ESI',
            contractName: 'DHL Economy Select',
            level: 1,
            slave: false,
            paused: false,
            multiParcel: true,
            cashOnDeliveryMethods: {},
            codTypes: {},
            maxParcelKg: 70,
            prices: priceList(EUROPE, { eu_1: 1.1, eu_2: 1.3, europe_non_eu: 1.6 }),
            overPerKg: 1.5,
            remoteAreaSurcharge: 0,
          },
          {
            contractCode: 'DHL-WPX',
            contractName: 'DHL Express Worldwide',
            level: 1,
            slave: false,
            paused: false,
            multiParcel: true,
            cashOnDeliveryMethods: {},
            codTypes: {},
            maxParcelKg: 70,
            prices: priceList(EXPRESS_WW, { eu_1: 0.8, eu_2: 0.9, europe_non_eu: 1, world: 1.5 }),
            overPerKg: 4.5,
            remoteAreaSurcharge: 0,
          },
        ],
        logoUrl: null,
      },
    ],
  };

  const rossi: AccountSeed = {
    accountId: 2044,
    clientId: 'ceramiche-rossi-shop',
    clientSecret: 'sandbox-secret-ceramiche-rossi-2026',
    name: 'Ceramiche Rossi – e-commerce',
    companyName: 'Ceramiche Rossi S.n.c.',
    credit: { balance: 150.0, currency: 'EUR', prepaid: true },
    subscription: { ...BUSINESS_PLAN },
    legacyApiKey: 'sbx-legacy-ceramiche-rossi-4b8e2d60',
    catalog: rossiCatalog(),
    history: rossiHistory(),
    warehouses: [
      {
        id: 3,
        name: 'Laboratorio Impruneta',
        senderName: 'Ceramiche Rossi S.n.c.',
        address: { street: 'Via della Fornace 4', city: 'Impruneta', province: 'FI', postalCode: '50023', countryCode: 'IT' },
        phone: '+39 055 201 1877',
        email: 'spedizioni@ceramicherossi.example',
        isDefault: true,
        freePickup: false,
      },
    ],
    carriers: [
      brt([
        {
          contractCode: 'BRT-NAZ-CR',
          contractName: 'BRT Espresso Nazionale',
          level: 1,
          slave: false,
          paused: false,
          multiParcel: true,
          cashOnDeliveryMethods: { cash: 'Contanti' },
          codTypes: { cash: 'BM' },
          maxParcelKg: 50,
          prices: priceList(NATIONAL_EXPRESS, { italy: 1.1, italy_calabria_sicily: 1.3, italy_sardinia: 1.4, italy_minor_islands: 1.1 }),
          overPerKg: 0.35,
          remoteAreaSurcharge: 10.0,
        },
      ]),
      gls([
        {
          contractCode: 'GLS-BUS-CR',
          contractName: 'GLS Business Parcel',
          level: 1,
          slave: false,
          paused: false,
          multiParcel: true,
          cashOnDeliveryMethods: { cash: 'Contanti' },
          codTypes: { cash: 'CONT' },
          maxParcelKg: 30,
          prices: priceList(NATIONAL_ECONOMY, { italy: 1.05, italy_calabria_sicily: 1.3, italy_sardinia: 1.4 }),
          overPerKg: 0.3,
          remoteAreaSurcharge: 0,
        },
      ]),
    ],
  };
  // The access-demo clients (402/403 answers) come after the two demo clients.
  return [verdi, rossi, ...accessDemoAccounts()];
}

/** Default seed: the two demo accounts, random tracking numbers. */
export function demoSeed(): SandboxSeed {
  return { accounts: demoAccounts() };
}
