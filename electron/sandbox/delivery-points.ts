/**
 * The carrier's pickup-point network behind GET /delivery-points and
 * `options.deliveryPoint` of POST /shipments (spec: Endpoints > Delivery
 * points; the content of `data` and the option's shape are "not shown").
 *
 * The one carrier with a point search is BRT (`brt`, its "fermopoint" shops
 * and lockers). The simulated carrier resolves a place from a gazetteer of
 * Italian towns: the city must be known (Italian or English name, case and
 * accents ignored) and the postal code must be one of that town's (leading
 * zeros completed, "184" -> "00184"); otherwise it answers an error, which
 * the platform passes on as 502 `carrier_error`. Points are pseudo-random but
 * deterministic per postal code: 3 to 6 per code, ids `FP-<cap>-<nn>` (shops)
 * and `LK-<cap>-<nn>` (lockers), so an id alone identifies its point.
 */
import { DELIVERY_POINT_CARRIER, type DeliveryPoint } from '../../shared/platform/lookups';
import { completePostalCode } from '../../shared/domain/postal';
import { fnv1a, mulberry32 } from '../../shared/domain/random';

/** A town the carrier's geocoder knows: postal-code prefixes (3 or 5 digits) and WGS84 centre. */
interface Town {
  name: string;
  aliases?: string[];
  province: string;
  caps: string[];
  lat: number;
  lon: number;
}

const TOWNS: ReadonlyArray<Town> = [
  { name: 'Milano', aliases: ['Milan'], province: 'MI', caps: ['201'], lat: 45.4642, lon: 9.19 },
  { name: 'Roma', aliases: ['Rome'], province: 'RM', caps: ['001'], lat: 41.9028, lon: 12.4964 },
  { name: 'Torino', aliases: ['Turin'], province: 'TO', caps: ['101'], lat: 45.0703, lon: 7.6869 },
  { name: 'Napoli', aliases: ['Naples'], province: 'NA', caps: ['801'], lat: 40.8518, lon: 14.2681 },
  { name: 'Genova', aliases: ['Genoa'], province: 'GE', caps: ['161'], lat: 44.4056, lon: 8.9463 },
  { name: 'Bologna', province: 'BO', caps: ['401'], lat: 44.4949, lon: 11.3426 },
  { name: 'Firenze', aliases: ['Florence'], province: 'FI', caps: ['501'], lat: 43.7696, lon: 11.2558 },
  { name: 'Venezia', aliases: ['Venice', 'Mestre'], province: 'VE', caps: ['301'], lat: 45.4408, lon: 12.3155 },
  { name: 'Palermo', province: 'PA', caps: ['901'], lat: 38.1157, lon: 13.3615 },
  { name: 'Bari', province: 'BA', caps: ['701'], lat: 41.1171, lon: 16.8719 },
  { name: 'Catania', province: 'CT', caps: ['951'], lat: 37.5079, lon: 15.083 },
  { name: 'Verona', province: 'VR', caps: ['371'], lat: 45.4384, lon: 10.9916 },
  { name: 'Padova', aliases: ['Padua'], province: 'PD', caps: ['351'], lat: 45.4064, lon: 11.8768 },
  { name: 'Trieste', province: 'TS', caps: ['341'], lat: 45.6495, lon: 13.7768 },
  { name: 'Brescia', province: 'BS', caps: ['251'], lat: 45.5416, lon: 10.2118 },
  { name: 'Bergamo', province: 'BG', caps: ['241'], lat: 45.6983, lon: 9.6773 },
  { name: 'Cagliari', province: 'CA', caps: ['091'], lat: 39.2238, lon: 9.1217 },
  { name: 'Parma', province: 'PR', caps: ['431'], lat: 44.8015, lon: 10.3279 },
  { name: 'Modena', province: 'MO', caps: ['411'], lat: 44.6471, lon: 10.9252 },
  { name: 'Reggio Emilia', aliases: ["Reggio nell'Emilia"], province: 'RE', caps: ['421'], lat: 44.6983, lon: 10.6312 },
  { name: 'Perugia', province: 'PG', caps: ['061'], lat: 43.1107, lon: 12.3908 },
  { name: 'Livorno', province: 'LI', caps: ['571'], lat: 43.5485, lon: 10.3106 },
  { name: 'Pisa', province: 'PI', caps: ['561'], lat: 43.7228, lon: 10.4017 },
  { name: 'Ravenna', province: 'RA', caps: ['481'], lat: 44.4184, lon: 12.2035 },
  { name: 'Rimini', province: 'RN', caps: ['479'], lat: 44.0678, lon: 12.5695 },
  { name: 'Salerno', province: 'SA', caps: ['841'], lat: 40.6824, lon: 14.7681 },
  { name: 'Pescara', province: 'PE', caps: ['651'], lat: 42.4618, lon: 14.2161 },
  { name: 'Trento', province: 'TN', caps: ['381'], lat: 46.0748, lon: 11.1217 },
  { name: 'Bolzano', aliases: ['Bozen'], province: 'BZ', caps: ['39100'], lat: 46.4983, lon: 11.3548 },
  { name: 'Vicenza', province: 'VI', caps: ['361'], lat: 45.5455, lon: 11.5354 },
  { name: 'Treviso', province: 'TV', caps: ['31100'], lat: 45.6669, lon: 12.243 },
  { name: 'Udine', province: 'UD', caps: ['33100'], lat: 46.0711, lon: 13.2346 },
  { name: 'Ancona', province: 'AN', caps: ['601'], lat: 43.6158, lon: 13.5189 },
  { name: 'Messina', province: 'ME', caps: ['981'], lat: 38.1938, lon: 15.554 },
  { name: 'Reggio Calabria', aliases: ['Reggio di Calabria'], province: 'RC', caps: ['891'], lat: 38.1113, lon: 15.6473 },
  { name: 'Taranto', province: 'TA', caps: ['741'], lat: 40.4644, lon: 17.247 },
  { name: 'Foggia', province: 'FG', caps: ['711'], lat: 41.4622, lon: 15.5446 },
  { name: 'Lecce', province: 'LE', caps: ['73100'], lat: 40.3515, lon: 18.175 },
  { name: 'Cosenza', province: 'CS', caps: ['87100'], lat: 39.2983, lon: 16.2538 },
  { name: 'Sassari', province: 'SS', caps: ['07100'], lat: 40.7259, lon: 8.5557 },
  { name: 'Monza', province: 'MB', caps: ['20900'], lat: 45.5845, lon: 9.2744 },
  { name: 'Sesto San Giovanni', province: 'MI', caps: ['20099'], lat: 45.5353, lon: 9.2342 },
  { name: 'Como', province: 'CO', caps: ['22100'], lat: 45.8081, lon: 9.0852 },
  { name: 'Varese', province: 'VA', caps: ['21100'], lat: 45.8206, lon: 8.8251 },
  { name: 'Pavia', province: 'PV', caps: ['27100'], lat: 45.1847, lon: 9.1582 },
  { name: 'Novara', province: 'NO', caps: ['28100'], lat: 45.4469, lon: 8.622 },
  { name: 'Piacenza', province: 'PC', caps: ['291'], lat: 45.0526, lon: 9.693 },
  { name: 'Ferrara', province: 'FE', caps: ['441'], lat: 44.8381, lon: 11.6198 },
  { name: 'La Spezia', province: 'SP', caps: ['191'], lat: 44.1025, lon: 9.8241 },
  { name: 'Siena', province: 'SI', caps: ['53100'], lat: 43.3188, lon: 11.3308 },
  { name: 'Arezzo', province: 'AR', caps: ['52100'], lat: 43.4633, lon: 11.8797 },
  { name: 'Lucca', province: 'LU', caps: ['55100'], lat: 43.843, lon: 10.5027 },
  { name: 'Prato', province: 'PO', caps: ['59100'], lat: 43.8777, lon: 11.1022 },
  { name: 'Impruneta', province: 'FI', caps: ['50023'], lat: 43.6847, lon: 11.2546 },
  { name: 'Latina', province: 'LT', caps: ['04100'], lat: 41.4676, lon: 12.9036 },
  { name: 'Aosta', province: 'AO', caps: ['11100'], lat: 45.737, lon: 7.3201 },
  { name: "L'Aquila", province: 'AQ', caps: ['67100'], lat: 42.3498, lon: 13.3995 },
  { name: 'Campobasso', province: 'CB', caps: ['86100'], lat: 41.5603, lon: 14.6627 },
  { name: 'Potenza', province: 'PZ', caps: ['85100'], lat: 40.6404, lon: 15.8056 },
  { name: 'Catanzaro', province: 'CZ', caps: ['88100'], lat: 38.9098, lon: 16.5877 },
  { name: 'Livigno', province: 'SO', caps: ['23041'], lat: 46.5385, lon: 10.1357 },
];

/** Folded name for comparisons: lower case, no accents, no punctuation. */
function fold(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Great-circle distance in metres (haversine, mean Earth radius). */
function distanceMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const R = 6_371_000;
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return Math.round(2 * R * Math.asin(Math.sqrt(a)));
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

function townOfCap(cap: string): Town | undefined {
  return TOWNS.find((t) => t.caps.some((p) => cap.startsWith(p)));
}

/** Error of the simulated carrier; the route answers it as 502 `carrier_error`. */
export class CarrierLookupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CarrierLookupError';
  }
}

const SHOP_KINDS = ['Tabaccheria', 'Edicola', 'Cartoleria', 'Ferramenta', 'Bar', 'Copisteria', 'Erboristeria', 'Lavanderia'];
const SHOP_NAMES = ['Rossi', 'Centrale', 'del Corso', 'Aurora', 'La Piazzetta', 'Stella', 'Moderna', 'Da Gino', 'Bianchi', 'San Marco'];
const STREETS = ['Via Roma', 'Via Garibaldi', 'Corso Italia', 'Via Mazzini', 'Via Cavour', 'Via Dante Alighieri', 'Viale della Repubblica', 'Via Verdi', 'Piazza della Libertà', 'Via XX Settembre', 'Via Manzoni', 'Via Marconi'];
const WEEKDAYS = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;

/** Opening hours: lockers always open, shops on a split or continuous day, Saturday morning, closed on Sunday. */
function openingHours(type: 'shop' | 'locker', continuous: boolean): DeliveryPoint['openingHours'] {
  return WEEKDAYS.map((day) => {
    if (type === 'locker') return { day, slots: [{ from: '00:00', to: '23:59' }] };
    if (day === 'SUN') return { day, slots: [] };
    if (day === 'SAT') return { day, slots: [{ from: '09:00', to: '13:00' }] };
    return { day, slots: continuous ? [{ from: '07:00', to: '20:00' }] : [{ from: '09:00', to: '13:00' }, { from: '15:30', to: '19:30' }] };
  });
}

/** The carrier's points of one postal code of a town, in id order (distance 0: filled in by the search). */
function pointsOfCap(town: Town, cap: string): DeliveryPoint[] {
  const rnd = mulberry32(fnv1a(`brt:${cap}`));
  const count = 3 + Math.floor(rnd() * 4);
  const lockerAt = count >= 4 ? Math.floor(rnd() * count) : -1;
  // Centre of the postal code: near the town centre, further out for suburban codes.
  const cLat = town.lat + (rnd() - 0.5) * 0.04;
  const cLon = town.lon + (rnd() - 0.5) * 0.05;
  const out: DeliveryPoint[] = [];
  for (let i = 0; i < count; i++) {
    const type = i === lockerAt ? 'locker' : 'shop';
    const street = `${STREETS[Math.floor(rnd() * STREETS.length)] ?? 'Via Roma'} ${1 + Math.floor(rnd() * 150)}`;
    const name =
      type === 'locker'
        ? `BRT Locker ${town.name} ${street.replace(/^(Via|Viale|Corso|Piazza) /, '')}`
        : `${SHOP_KINDS[Math.floor(rnd() * SHOP_KINDS.length)] ?? 'Bar'} ${SHOP_NAMES[Math.floor(rnd() * SHOP_NAMES.length)] ?? 'Centrale'}`;
    const continuous = rnd() < 0.3;
    const nn = String(i + 1).padStart(2, '0');
    out.push({
      id: `${type === 'locker' ? 'LK' : 'FP'}-${cap}-${nn}`,
      name,
      type,
      address: { street, postalCode: cap, city: town.name, province: town.province, countryCode: 'IT' },
      latitude: round6(cLat + (rnd() - 0.5) * 0.016),
      longitude: round6(cLon + (rnd() - 0.5) * 0.022),
      distanceMeters: 0,
      openingHours: openingHours(type, continuous),
      codAccepted: type === 'shop',
      maxParcelKg: type === 'locker' ? 15 : 20,
    });
  }
  return out;
}

/** The carrier's answer to a point search (the `data` of GET /delivery-points). */
export interface DeliveryPointsAnswer {
  carrier: string;
  searchedAddress: { city: string; postalCode: string; address: string | null; latitude: number; longitude: number };
  points: DeliveryPoint[];
}

/**
 * Searches the carrier's points near `city` + `postalCode` (Italy), nearest
 * first; `address`, when given, moves the reference point within the postal
 * code so distances change with it.
 * @throws CarrierLookupError when the carrier cannot resolve the place (unknown town,
 *         postal code not of that town or not 5 digits).
 */
export function searchDeliveryPoints(city: string, postalCode: string, address?: string): DeliveryPointsAnswer {
  const cap = completePostalCode('IT', postalCode);
  const wanted = fold(city);
  const town = TOWNS.find((t) => [t.name, ...(t.aliases ?? [])].some((n) => fold(n) === wanted));
  if (!town) throw new CarrierLookupError(`BRT: località "${city}" non trovata (locality not found)`);
  if (!/^\d{5}$/.test(cap) || !town.caps.some((p) => cap.startsWith(p))) {
    throw new CarrierLookupError(`BRT: CAP "${postalCode}" non corrisponde alla località ${town.name.toUpperCase()} (postal code does not match the locality)`);
  }
  const points = pointsOfCap(town, cap);
  const first = points[0];
  let refLat = first ? points.reduce((s, p) => s + p.latitude, 0) / points.length : town.lat;
  let refLon = first ? points.reduce((s, p) => s + p.longitude, 0) / points.length : town.lon;
  const addr = address?.trim() ? address.trim() : null;
  if (addr) {
    const r = mulberry32(fnv1a(`addr:${cap}:${fold(addr)}`));
    refLat += (r() - 0.5) * 0.01;
    refLon += (r() - 0.5) * 0.014;
  }
  for (const p of points) p.distanceMeters = distanceMeters(refLat, refLon, p.latitude, p.longitude);
  points.sort((a, b) => a.distanceMeters - b.distanceMeters || (a.id < b.id ? -1 : 1));
  return {
    carrier: DELIVERY_POINT_CARRIER,
    searchedAddress: { city: town.name, postalCode: cap, address: addr, latitude: round6(refLat), longitude: round6(refLon) },
    points,
  };
}

/**
 * The point with this id (`FP-<cap>-<nn>` or `LK-<cap>-<nn>`, case-insensitive),
 * or undefined when the carrier has no such point. Distance is 0 (no search place).
 */
function findDeliveryPoint(id: string): DeliveryPoint | undefined {
  const m = /^(FP|LK)-(\d{5})-(\d{2})$/.exec(id.trim().toUpperCase());
  if (!m?.[2]) return undefined;
  const town = townOfCap(m[2]);
  if (!town) return undefined;
  return pointsOfCap(town, m[2]).find((p) => p.id === m[0]);
}

/** `options.deliveryPoint` of a shipment once resolved: the point's carrier, id, name, type and address. */
export interface DeliveryPointRef {
  carrier: string;
  id: string;
  name: string;
  type: 'shop' | 'locker';
  address: { street: string; city: string; province?: string; postalCode: string; countryCode: string };
}

/**
 * Checks `options.deliveryPoint` of POST /shipments against the carrier's
 * network and the rest of the request, adding problems to `details`:
 * `options.deliveryPoint.carrier` (only `brt`), `options.deliveryPoint.id`
 * (unknown point; recipient not in Italy; a parcel heavier than the point
 * takes), `options.cod` (cash on delivery cannot be paid at a locker).
 * The contract must then be of the point's carrier (checked by the caller).
 * @returns the resolved point, or undefined when it is not valid.
 */
export function checkDeliveryPoint(
  sel: { id: string; carrier: string },
  req: { recipient: { address: { countryCode: string } }; packages: ReadonlyArray<{ weight: { value: number; units: string } }>; options?: { cod?: { amount: number } | undefined } | undefined },
  details: Record<string, string[]>,
): DeliveryPointRef | undefined {
  const add = (p: string, m: string) => (details[p] ??= []).push(m);
  if (sel.carrier !== DELIVERY_POINT_CARRIER) {
    add('options.deliveryPoint.carrier', `Delivery points exist only for carrier "${DELIVERY_POINT_CARRIER}"`);
    return undefined;
  }
  const p = findDeliveryPoint(sel.id);
  if (!p) {
    add('options.deliveryPoint.id', `Unknown delivery point "${sel.id}": use an id from GET /delivery-points`);
    return undefined;
  }
  let ok = true;
  if (req.recipient.address.countryCode.toUpperCase() !== 'IT') {
    add('options.deliveryPoint.id', `Delivery point ${p.id} is in Italy; the recipient's country is ${req.recipient.address.countryCode.toUpperCase()}`);
    ok = false;
  }
  const heaviest = Math.max(...req.packages.map((k) => (k.weight.units === 'G' ? k.weight.value / 1000 : k.weight.value)));
  if (heaviest > p.maxParcelKg) {
    add('options.deliveryPoint.id', `${p.name} takes parcels up to ${p.maxParcelKg} kg; the heaviest is ${heaviest} kg`);
    ok = false;
  }
  if (!p.codAccepted && (req.options?.cod?.amount ?? 0) > 0) {
    add('options.cod', `Cash on delivery cannot be paid at a locker (${p.id})`);
    ok = false;
  }
  if (!ok) return undefined;
  const { street, city, province, postalCode, countryCode } = p.address;
  return { carrier: DELIVERY_POINT_CARRIER, id: p.id, name: p.name, type: p.type, address: { street, city, ...(province ? { province } : {}), postalCode, countryCode } };
}
