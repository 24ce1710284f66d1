/**
 * Quoting across an account's contracts, shared by POST /rates and
 * POST /shipments (whose default `serviceType` is the first contract of the
 * quote), plus request checks both endpoints make beyond the zod schemas.
 */
import type { FieldErrors } from '../../shared/platform/common';
import type { Account, CarrierDef, ContractDef } from './model';
import { quoteContract, type QuoteInput, type QuoteOutcome } from './pricing';

/** One contract of the account with its pricing outcome. */
export interface ContractQuote {
  carrier: CarrierDef;
  contract: ContractDef;
  outcome: QuoteOutcome;
}

/**
 * Prices every contract of the account, in the account's order (carriers,
 * then contracts, as GET /carriers lists them); `carrierCode` narrows to one
 * carrier (case-insensitive).
 */
export function quoteAll(account: Account, input: QuoteInput, carrierCode?: string): ContractQuote[] {
  const out: ContractQuote[] = [];
  for (const carrier of account.carriers) {
    if (carrierCode !== undefined && carrier.carrierCode !== carrierCode.toLowerCase()) continue;
    for (const contract of carrier.contracts) out.push({ carrier, contract, outcome: quoteContract(carrier, contract, input) });
  }
  return out;
}

/**
 * Extra address rules of the API: an Italian province is a 2-letter code
 * (spec: Address.province "2 letters for Italy"). Adds issues under `path`.
 */
export function checkItalianProvince(
  address: { countryCode: string; province?: string | undefined } | undefined,
  path: string,
  details: FieldErrors,
): void {
  if (!address || address.countryCode.toUpperCase() !== 'IT' || address.province === undefined || address.province === '') return;
  if (!/^[A-Za-z]{2}$/.test(address.province.trim())) {
    (details[`${path}.province`] ??= []).push('Italian province must be the 2-letter code (e.g. MI)');
  }
}

/** COD and insurance are collected and priced in EUR only; adds issues for another currency. */
export function checkEuro(money: { currency: string } | undefined, path: string, details: FieldErrors): void {
  if (money && money.currency.toUpperCase() !== 'EUR') (details[`${path}.currency`] ??= []).push('Only EUR is accepted');
}
