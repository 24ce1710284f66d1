/**
 * The platform's request of a planned shipment (issue 22 item 4; issue 43 item 3): quote the plan's parcels
 * (`POST /rates`), pick the rate the plan's contract says, add the rule's signature service and the COD method,
 * and check the request as `shipping.shipOrder` takes it. One function for a packer's press and for a label
 * bought ahead (`priority` says whose slot of the account's budget the quote takes).
 */
import { ShipInput } from '../../../shared/contract/commands';
import type { z } from 'zod';
import { StationError } from '../../../shared/contract/errors';
import { coreText } from '../../../shared/contract/core-text';
import type { ShipPlanView } from '../../../shared/contract/plan';
import type { StationOrder } from '../../../shared/domain/order';
import { issuesToDetails, type Rate, type ShipmentRequest } from '../../../shared/platform';
import { QUEUED_CODES } from '../../../shared/contract/outbox-outcome';
import { PlatformError } from '../platform/errors';
import type { StationContext } from '../common/context';

/** Accessory service of a rate that asks for the recipient's signature (its name says signature or firma). */
function signatureService(rate: Rate): number | undefined {
  return rate.services.find((s) => /signature|firma/i.test(s.serviceName))?.serviceId;
}

/**
 * Picks the rate the plan's contract says from a quote: the fixed contract, the
 * cheapest of the set, or the first of the set the quote offers (`fastest`).
 * @throws StationError `invalid_state` naming `serviceType` when none of the quote fits.
 */
function pickRate(plan: ShipPlanView, rates: readonly Rate[]): Rate {
  const c = plan.contract;
  let rate: Rate | undefined;
  if (c?.kind === 'fixed') rate = rates.find((r) => r.contractCode === c.contractCode);
  else if (c) {
    const among = c.among;
    const offered = among ? rates.filter((r) => among.includes(r.contractCode)) : [...rates];
    if (c.kind === 'cheapest') rate = offered.sort((a, b) => a.price.total - b.price.total)[0];
    else rate = among ? among.map((code) => offered.find((r) => r.contractCode === code)).find((r) => r !== undefined) : offered[0];
  }
  if (!rate) {
    const what = !c ? 'a contract' : c.kind === 'fixed' ? `contract ${c.contractCode}` : `any contract of the rule (${(c.among ?? ['all']).join(', ')})`;
    throw new StationError('invalid_state', `The quote for this parcel does not offer ${what}`, { serviceType: [`No quote for ${what}`] });
  }
  return rate;
}

/**
 * The quote of a press (`POST /rates`), or `not_sent` when the platform gave none (issue 42 item 8): no outbox
 * row exists yet, so the press is not queued and must not be called so; the message says why and, for the
 * account's limit, in how many seconds to press again (`details.retryAfterS`).
 * @throws StationError `not_sent`; the platform's other refusals as they are (`validation_failed`, …)
 */
async function quoteOrNotSent(ctx: StationContext, input: Parameters<StationContext['client']['quote']>[0], priority: 'packer' | 'background'): Promise<Rate[]> {
  try {
    return await ctx.client.quote(input, { budgetPriority: priority });
  } catch (e) {
    if (e instanceof PlatformError && e.code === 'rate_limited') {
      const seconds = Math.max(1, Math.ceil((e.retryAfterMs ?? 60_000) / 1000));
      const said = coreText('notSentRateLimited', { seconds });
      throw new StationError('not_sent', said.message, { retryAfterS: [String(seconds)] }, said.text);
    }
    if (e instanceof PlatformError && QUEUED_CODES.has(e.code)) {
      const said = coreText('notSentNoQuote', { reason: e.message });
      throw new StationError('not_sent', said.message, undefined, said.text);
    }
    throw e;
  }
}

/**
 * The checked request of `plan` for `order` ({@link ShipInput} with the order's id): quoted, its rate picked by
 * the plan's contract, the rule's signature service and the COD method added.
 * @param base the plan's request (`plan.request`), without carrier and contract
 * @param packages the plan's parcels (`plan.packages`)
 * @param priority whose slot the quote takes in the account's budget: a packer's, or background work's (labels ahead)
 * @throws StationError `not_sent` (no quote: the account's limit, or the platform away), `invalid_state` naming
 *   `serviceType`, `options.accessoryServices` or `options.cod.method`, `invalid_input` (the request's fields)
 */
export async function plannedRequest(ctx: StationContext, order: StationOrder, plan: ShipPlanView, base: ShipmentRequest, packages: NonNullable<ShipPlanView['packages']>, priority: 'packer' | 'background'): Promise<z.infer<typeof ShipInput>> {
const rates = await quoteOrNotSent(ctx, {
    recipient: { address: { postalCode: base.recipient.address.postalCode, countryCode: base.recipient.address.countryCode, city: base.recipient.address.city, ...(base.recipient.address.province ? { province: base.recipient.address.province } : {}) } },
    packages,
    ...(base.options?.cod || base.options?.insurance ? { options: { ...(base.options.cod ? { cod: { amount: base.options.cod.amount, currency: base.options.cod.currency } } : {}), ...(base.options.insurance ? { insurance: base.options.insurance } : {}) } } : {}),
  }, priority);
  const rate = pickRate(plan, rates);
  const options = { ...(base.options ?? {}) };
  if (plan.decision.rule?.then.options?.signature) {
    const id = signatureService(rate);
    if (id === undefined) throw new StationError('invalid_state', `Contract ${rate.contractName} offers no signature service`, { 'options.accessoryServices': ['No signature service'] });
    options.accessoryServices = [id];
  }
  if (options.cod && !options.cod.method) {
    const method = Object.keys(rate.cashOnDeliveryMethods)[0];
    if (!method) throw new StationError('invalid_state', `Contract ${rate.contractName} does not take cash on delivery`, { 'options.cod.method': ['This contract does not take cash on delivery'] });
    options.cod = { ...options.cod, method };
  }
  const request: ShipmentRequest = { ...base, carrierCode: rate.carrierCode, serviceType: rate.contractCode, ...(Object.keys(options).length ? { options } : {}) };
  const parsed = ShipInput.safeParse({ orderId: order.id, request });
  if (!parsed.success) throw new StationError('invalid_input', 'The planned shipment is not valid', issuesToDetails(parsed.error.issues));
  return parsed.data;
}
