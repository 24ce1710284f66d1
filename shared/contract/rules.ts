/**
 * Shipping rules as plain data (issue 24 items 1-2): an ordered list, the
 * first enabled rule whose every condition holds acts. The file shape is
 * `{version: 1, rules: [{name, when: {...}, then: {...}}]}`; fields this
 * version does not know are kept (other tools may add their own), the JSON
 * Schema of the same shape, shared/schemas/rules.schema.json, is generated
 * from these zod schemas by build/rules-schema.ts (`.meta()` adds what JSON
 * Schema says otherwise: blanks around values, the refinements, descriptions).
 *
 * Units: weights kg, money in the order's currency, sizes cm. Country codes
 * ISO 3166-1 alpha-2 (upper-cased on reading). Postcode patterns: digits,
 * letters and `*` (any run of characters), e.g. `20*`, `23030`.
 */
import { z } from 'zod';
import { DEVICE_URI_HINTS, DEVICE_URI_JSON_PATTERN, DEVICE_URI_SHAPE } from '../print/device-uri-schemes';

const Code2 = z
  .string({ error: 'Country must be 2 letters (ISO 3166-1, e.g. IT)' })
  .trim()
  .transform((s) => s.toUpperCase())
  .pipe(z.string().regex(/^[A-Z]{2}$/, { error: 'Country must be 2 letters (ISO 3166-1, e.g. IT)' }))
  .meta({ id: 'country', pattern: '^\\s*[A-Za-z]{2}\\s*$' });

const Text = (label: string, max = 200) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .min(1, { error: `${label} must not be empty` })
    .max(max, { error: `${label} is at most ${max} characters` })
    // Trimmed, then not empty: some character that is not blank.
    .meta({ pattern: '\\S' });

const Range = (label: string, unit: string) =>
  z
    .object({
      min: z.number({ error: `${label} min must be a number${unit}` }).min(0, { error: `${label} min must be 0 or more` }).optional(),
      max: z.number({ error: `${label} max must be a number${unit}` }).min(0, { error: `${label} max must be 0 or more` }).optional(),
    })
    .strict()
    .refine((r) => r.min === undefined || r.max === undefined || r.min <= r.max, { error: `${label} min must not be above max`, path: ['min'] });

/** The shape of a label printer's device URI, from the one scheme table (electron/core/printing/transports/uri.ts parses it fully when printing). */
const DEVICE_URI = DEVICE_URI_SHAPE;

/** Zones a rule may name: `domestic` (Italy, the station's country), `eu` (inside the EU customs territory), `extra_eu` (outside it, special territories included). */
const RULE_ZONES = ['domestic', 'eu', 'extra_eu'] as const;

/** Special territories (shared/domain/customs.ts), or `any` for any of them. */
const TERRITORIES = ['any', 'canary_islands', 'ceuta', 'melilla', 'livigno', 'helgoland', 'aland'] as const;

/**
 * Conditions of a rule; all given ones must hold (an empty `when` matches every order).
 * - `shops`: the order's shop is one of these;
 * - `countries`, `zones`, `postcodes` (patterns with `*`), `territories` (special territory);
 * - `weightKg` `{min?, max?}` inclusive, kg: the order's weight must be known;
 * - `parcels` `{min?, max?}`: parcel count of the plan (1 unless the order needs several boxes);
 * - `total` `{min?, max?}`: order total in its currency;
 * - `skus.any`: some line's SKU matches a pattern; `skus.all`: every line's SKU does;
 * - `shippingMethod`: the shop's shipping-method text contains one of these (case-insensitive);
 * - `keywords`: the order's note (or tags, when the shop exports them in the note) contains one of these;
 * - `payment`: `paid` or `unpaid` (the Shopify financial status; `unknown` is neither).
 */
export const RuleWhen = z
  .looseObject({
    shops: z.array(Text('Shop', 100)).min(1).optional(),
    countries: z.array(Code2).min(1, { error: 'List at least one country' }).optional(),
    zones: z.array(z.enum(RULE_ZONES, { error: `Zone must be one of ${RULE_ZONES.join(', ')}` })).min(1).optional(),
    postcodes: z
      .array(z.string().trim().regex(/^[A-Za-z0-9 *-]{1,15}$/, { error: 'Postcode pattern is letters, digits and * (e.g. 20*)' }).meta({ pattern: '^\\s*[A-Za-z0-9 *-]{1,15}\\s*$' }))
      .min(1)
      .optional(),
    territories: z.array(z.enum(TERRITORIES, { error: `Territory must be one of ${TERRITORIES.join(', ')}` })).min(1).optional(),
    weightKg: Range('Weight', ' of kg').optional(),
    parcels: Range('Parcels', '').optional(),
    total: Range('Total', '').optional(),
    skus: z
      .object({ any: z.array(Text('SKU', 100)).min(1).optional(), all: z.array(Text('SKU', 100)).min(1).optional() })
      .strict()
      .optional(),
    shippingMethod: z.array(Text('Shipping method', 100)).min(1).optional(),
    keywords: z.array(Text('Keyword', 100)).min(1).optional(),
    payment: z.enum(['paid', 'unpaid'], { error: 'Payment must be paid or unpaid' }).optional(),
  })
  .meta({ id: 'when' });
/** Parsed {@link RuleWhen}. */
export type RuleWhen = z.output<typeof RuleWhen>;

/**
 * The declaration's defaults a rule gives: `contentType`, `originCountry`
 * (country of origin of the goods when product data does not say) and
 * `description`. Files and saved rules of earlier versions name the country
 * `countryOfManufacture` (the platform's wire name): read as `originCountry`,
 * written back as `originCountry` only; both at once are refused.
 */
const RuleCustoms = z
  .object({
    contentType: z.enum(['MERCHANDISE', 'GIFT', 'SAMPLE', 'DOCUMENTS', 'RETURN', 'REPAIR', 'PERSONAL_EFFECTS'], { error: 'Content type is one of the spec’s (MERCHANDISE, GIFT, ...)' }).optional(),
    originCountry: Code2.optional(),
    countryOfManufacture: Code2.optional().meta({ deprecated: true, description: 'Files of earlier versions: read as originCountry.' }),
    description: Text('Customs description', 255).optional(),
  })
  .strict()
  .refine((c) => c.originCountry === undefined || c.countryOfManufacture === undefined, {
    error: 'Give originCountry only (countryOfManufacture is its earlier name)',
    path: ['countryOfManufacture'],
  })
  .meta({ not: { required: ['originCountry', 'countryOfManufacture'] } })
  .transform(({ countryOfManufacture, ...c }) => (countryOfManufacture === undefined ? c : { ...c, originCountry: countryOfManufacture }));

/**
 * What a rule does.
 * - `contract`: a fixed contract code (`serviceType`); or `rate` `cheapest`/`fastest` among
 *   `among` (contract codes; all quoted ones when absent). `fastest` takes the first contract
 *   of `among` the quote offers (list them fastest first: the platform gives no transit time);
 * - `box`: box preset name (Settings › Boxes); `maxParcelKg`: heaviest parcel, more makes several parcels;
 * - `options`: `insurance` (`true` = the order total, or an amount), `signature` (an accessory
 *   service of the contract whose name says signature/firma), `cod` (cash on delivery of the
 *   order total for unpaid orders; `codMethod` the contract's method key), `notes` for the courier;
 * - `customs`: defaults of the declaration (`contentType`, `originCountry`, `description`; {@link RuleCustoms});
 * - `printer`: the device URI of the label printer the label goes to (`socket://host:9100`,
 *   `usb://…`, `printer:<queue>`, `file:///folder`), and so that printer's profile (profiles are
 *   kept per device URI); absent: the label printer in use;
 * - `printerProfile`: read from files of earlier versions and kept; a value that is a device URI
 *   counts as `printer` ({@link rulePrinterUri}), a name alone chooses nothing;
 * - `longLabelPrinter`: the device URI of the label printer (and so its profile, e.g. 4 × 8 in stock) that
 *   this rule's labels go to when they are longer than the stock of the printer they would print on
 *   (issue 36: a contract whose carrier sends 4 × 7 in labels); absent: such a label is held for the packer;
 * - `shipByItself`: ship without a key press.
 */
export const RuleThen = z
  .looseObject({
    contract: Text('Contract', 200).meta({ description: 'A fixed contract code (serviceType).' }).optional(),
    rate: z.enum(['cheapest', 'fastest'], { error: 'Rate must be cheapest or fastest' }).optional(),
    among: z
      .array(Text('Contract', 200))
      .min(1, { error: 'List at least one contract' })
      .meta({ description: 'Contract codes to choose from; fastest takes the first one quoted.' })
      .optional(),
    box: Text('Box', 40).optional(),
    maxParcelKg: z.number({ error: 'Max parcel weight must be a number of kg' }).gt(0, { error: 'Max parcel weight must be above 0 kg' }).max(1000).optional(),
    options: z
      .object({
        insurance: z.union([z.boolean(), z.number().positive({ error: 'Insurance must be above 0' }).max(1_000_000)], { error: 'Insurance is true (the order total) or an amount' }).optional(),
        signature: z.boolean({ error: 'Signature is true or false' }).optional(),
        cod: z.boolean({ error: 'COD is true or false' }).meta({ description: 'Cash on delivery of the order total, for unpaid orders.' }).optional(),
        codMethod: Text('COD method', 50).optional(),
        notes: z.string().trim().max(255, { error: 'Notes are at most 255 characters' }).optional(),
      })
      .strict()
      .optional(),
    customs: RuleCustoms.optional(),
    printer: Text('Label printer', 1024)
      .regex(DEVICE_URI, { error: `Label printer must be a device URI (${DEVICE_URI_HINTS})` })
      .meta({
        pattern: DEVICE_URI_JSON_PATTERN,
        description: `Device URI of the label printer the label goes to (${DEVICE_URI_HINTS}), and so that printer's profile; absent: the label printer in use.`,
      })
      .optional(),
    longLabelPrinter: Text('Long-label printer', 1024)
      .regex(DEVICE_URI, { error: `Long-label printer must be a device URI (${DEVICE_URI_HINTS})` })
      .meta({
        pattern: DEVICE_URI_JSON_PATTERN,
        description: `Device URI of the label printer (and so its profile) this rule's labels go to when longer than the stock of the printer they would print on (${DEVICE_URI_HINTS}); absent: such a label is held for the packer.`,
      })
      .optional(),
    printerProfile: Text('Printer profile', 100)
      .meta({ description: 'Files of earlier versions: kept; a device URI here counts as printer, a name alone chooses nothing.' })
      .optional(),
    shipByItself: z.boolean({ error: 'Ship by itself is true or false' }).optional(),
  })
  .refine((t) => !(t.contract !== undefined && t.rate !== undefined), { error: 'Give either a fixed contract or a rate (cheapest/fastest), not both', path: ['contract'] })
  .meta({ id: 'then', not: { required: ['contract', 'rate'] } });
/** Parsed {@link RuleThen}. */
export type RuleThen = z.output<typeof RuleThen>;

/**
 * The device URI of the label printer a rule's action names: `printer`, else an
 * earlier file's `printerProfile` when it is a device URI; null for the label printer in use.
 */
export function rulePrinterUri(then: RuleThen): string | null {
  if (then.printer !== undefined) return then.printer;
  const old = then.printerProfile;
  return old !== undefined && DEVICE_URI.test(old) ? old : null;
}

/** One rule: its name, whether it is on (default on), its conditions and actions. */
export const Rule = z.looseObject({
  name: Text('Rule name', 100),
  enabled: z.boolean({ error: 'Enabled is true or false' }).default(true),
  when: RuleWhen.default({}),
  then: RuleThen,
}).meta({ id: 'rule' });
/** Parsed {@link Rule}. */
export type Rule = z.output<typeof Rule>;

/** The rules file: `version` 1 and the rules in order (at most 200). */
export const RulesFile = z
  .looseObject({
    version: z.literal(1, { error: 'version must be 1' }),
    // Not checked (a file's own field, kept as it is); a string or number is shown as the version running.
    revision: z.unknown().optional().meta({ type: ['string', 'number'], description: "Optional: the file's own version, shown as the version running." }),
    rules: z.array(Rule, { error: 'rules must be a list' }).max(200, { error: 'At most 200 rules' }),
  })
  .meta({
    $id: 'https://shipping-station.local/schemas/rules.schema.json',
    title: 'Shipping Station rules file',
    description:
      "Shipping rules of a packing bench (issue 24): an ordered list, the first enabled rule whose every condition holds acts. Weights kg, sizes cm, money in the order's currency. Fields not listed here are allowed and kept. The station checks the same shape with zod (shared/contract/rules.ts).",
  });
/** Parsed {@link RulesFile}. */
export type RulesFile = z.output<typeof RulesFile>;

/** One piece of an explanation, for the screen to put in words: a locale key under `rules.why.` and its values (numbers unformatted, kg or the order's currency). */
export interface RuleReason {
  key: string;
  params: Record<string, string | number>;
}

/**
 * Which rule acted on an order and why: `rule` its 1-based place and name
 * (null when none matched), `reasons` the conditions that held (the screen
 * joins them: «rule 3 'Italia fino a 5 kg': country IT, weight 1,2 kg ≤ 5»).
 */
export interface RuleDecision {
  rule: { index: number; name: string; then: RuleThen } | null;
  reasons: RuleReason[];
}

/** The outcome of every rule for one order, in order: matched, or the first condition that failed (`why`), or off. */
export interface RuleTraceStep {
  index: number;
  name: string;
  outcome: 'matched' | 'failed' | 'disabled' | 'not_reached';
  why: RuleReason[];
}

/** Where the station's rules (or product data) come from and which version it runs. */
export interface FollowedFileView {
  /** The shared file followed, or null when the data is kept at this station only. */
  path: string | null;
  /** Version running: `v<version>` of a rules file when it has one, else mtime and hash; null before any load. */
  version: { mtime: string | null; hash: string; label: string } | null;
  /** When the running copy was read (ISO). */
  loadedAt: string | null;
  /** Why the newest read failed (share away, invalid file); the last good copy keeps running. */
  error: string | null;
}

/** `rules.list`: the rules in order, and where they come from. */
export interface RulesView {
  rules: Rule[];
  source: FollowedFileView;
}

/** `rules.test`: the decision and the trace of every rule, with the weight used. */
export interface RulesTestView {
  decision: RuleDecision;
  trace: RuleTraceStep[];
  weightKg: number | null;
}
