/**
 * The platform's own texts in the bench's language. The platform writes some
 * texts in Italian whatever the client (spec: Resources > CreditMovement
 * `description`); the ones whose form the station knows are said again from
 * the locale files, by what they name (`account.movement.*`):
 * - `Spedizione <trackingNumber> (<contract>)`: a shipment charged;
 * - `Addebito reso al mittente <trackingNumber>`: a return to sender charged;
 * - `Ricarica credito (<method>)`: a credit top-up;
 * - `Ritiro <pickupId> del <YYYY-MM-DD>`: a pickup charged (the day written the bench's way).
 * Any other text is shown as the platform wrote it.
 */
import type { CreditMovement } from '../../../shared/platform/finance';
import { calendarDate } from './format';
import { t } from './i18n';

/** Ways of paying a top-up the platform names (in Italian), by their words: `bonifico bancario` -> `account.payMethod.bankTransfer`. */
const PAY_METHODS: Readonly<Record<string, string>> = { 'bonifico bancario': 'bankTransfer', 'carta di credito': 'card', paypal: 'paypal' };

/** A way of paying in the bench's language; an unknown one as the platform wrote it. */
function methodText(method: string): string {
  const key = PAY_METHODS[method.trim().toLowerCase()];
  return key ? t(`account.payMethod.${key}`) : method;
}

const FORMS: ReadonlyArray<{ form: RegExp; text(m: RegExpExecArray, mv: CreditMovement): string | null }> = [
  { form: /^Spedizione (\S+) \((.+)\)$/, text: (m, mv) => (mv.trackingNumber === m[1] ? t('account.movement.shipment', { trackingNumber: m[1]!, contract: m[2]! }) : null) },
  { form: /^Addebito reso al mittente (\S+)$/, text: (m, mv) => (mv.trackingNumber === m[1] ? t('account.movement.returnCharge', { trackingNumber: m[1]! }) : null) },
  { form: /^Ritiro (\S+) del (\d{4}-\d{2}-\d{2})$/, text: (m, mv) => (mv.pickupId !== null ? t('account.movement.pickup', { id: m[1]!, date: calendarDate(m[2]!) }) : null) },
  { form: /^Ricarica credito \((.+)\)$/, text: (m, mv) => (mv.type === 'credit' ? t('account.movement.topUp', { method: methodText(m[1]!) }) : null) },
];

/** A credit movement's description in the bench's language when its form is known; else the platform's text. */
export function movementText(mv: CreditMovement): string {
  for (const { form, text } of FORMS) {
    const m = form.exec(mv.description);
    const said = m ? text(m, mv) : null;
    if (said !== null) return said;
  }
  return mv.description;
}
