/**
 * The manual order form of the Orders panel: an order typed by hand (one
 * item line), checked with the ManualOrderInput schema and the recipient
 * rules before it is sent as `orders.create`.
 */
import { useState } from 'react';
import { ManualOrderInput, normalizePostalCode, recipientProblems } from '../../../../shared/domain/order';
import { issuesToDetails, type FieldErrors } from '../../../../shared/platform';
import { ErrorList, TextField, keepFocusOnMouseDown } from '../../components/Field';
import { parseDecimal } from '../../lib/format';
import { t } from '../../lib/i18n';
import { unplacedErrors } from '../../lib/shipForm';
import { useApp } from '../../stores/app';
import { useOrders } from '../../stores/orders';

interface ManualDraft {
  orderNumber: string;
  name: string;
  company: string;
  street: string;
  street2: string;
  postalCode: string;
  city: string;
  province: string;
  countryCode: string;
  phone: string;
  email: string;
  itemName: string;
  itemSku: string;
  itemQty: string;
  itemPrice: string;
  notes: string;
}

const EMPTY_MANUAL: ManualDraft = {
  orderNumber: '',
  name: '',
  company: '',
  street: '',
  street2: '',
  postalCode: '',
  city: '',
  province: '',
  countryCode: 'IT',
  phone: '',
  email: '',
  itemName: '',
  itemSku: '',
  itemQty: '1',
  itemPrice: '',
  notes: '',
};

/** Form field -> ManualOrderInput issue path. */
const MANUAL_PATHS: Record<keyof ManualDraft, string> = {
  orderNumber: 'orderNumber',
  name: 'recipient.name',
  company: 'recipient.company',
  street: 'recipient.street',
  street2: 'recipient.street2',
  postalCode: 'recipient.postalCode',
  city: 'recipient.city',
  province: 'recipient.province',
  countryCode: 'recipient.countryCode',
  phone: 'recipient.phone',
  email: 'recipient.email',
  itemName: 'items.0.name',
  itemSku: 'items.0.sku',
  itemQty: 'items.0.quantity',
  itemPrice: 'items.0.unitPrice',
  notes: 'notes',
};

/** The form as the `orders.create` input; one item line when its name is filled. */
function manualInput(d: ManualDraft): ManualOrderInput {
  const hasItem = d.itemName.trim() !== '' || d.itemSku.trim() !== '';
  const price = parseDecimal(d.itemPrice);
  return {
    orderNumber: d.orderNumber,
    email: d.email,
    recipient: { name: d.name, company: d.company, street: d.street, street2: d.street2, postalCode: d.postalCode, city: d.city, province: d.province, countryCode: d.countryCode, phone: d.phone, email: d.email },
    items: hasItem ? [{ name: d.itemName, sku: d.itemSku, quantity: parseDecimal(d.itemQty) as number, unitPrice: price }] : [],
    notes: d.notes,
  };
}

/**
 * Errors of the manual form: the ManualOrderInput schema, plus the Italian
 * rules of `recipientProblems` at once (the schema checks those only once the
 * required fields are there, and the packer should see every problem in one go).
 */
function manualErrors(d: ManualDraft): FieldErrors {
  const r = ManualOrderInput.safeParse(manualInput(d));
  if (r.success) return {};
  const out = issuesToDetails(r.error.issues);
  const countryCode = d.countryCode.trim().toUpperCase();
  const blank = (v: string) => (v.trim() === '' ? undefined : v.trim());
  const province = blank(d.province)?.toUpperCase();
  const problems = recipientProblems({
    name: d.name.trim(),
    street: d.street.trim(),
    city: d.city.trim(),
    postalCode: normalizePostalCode(d.postalCode, countryCode),
    countryCode,
    ...(province !== undefined ? { province } : {}),
  });
  for (const k of ['postalCode', 'province'] as const) {
    const msg = problems[k];
    if (msg && !out[`recipient.${k}`]) out[`recipient.${k}`] = [msg];
  }
  return out;
}

/** The manual order form (`orders.create`), every field checked as typed and all problems shown on submit. */
export function ManualOrderCard() {
  const [d, setD] = useState<ManualDraft>(EMPTY_MANUAL);
  const [touched, setTouched] = useState<Record<string, true>>({});
  const [submitted, setSubmitted] = useState(false);
  const { create, creating, createErrors } = useOrders();
  const errors: FieldErrors = { ...manualErrors(d), ...createErrors };
  const show = (k: keyof ManualDraft) => (submitted || touched[k] ? errors[MANUAL_PATHS[k]]?.[0] : undefined);
  const f = (k: keyof ManualDraft, label: string, extra: Partial<Parameters<typeof TextField>[0]> = {}) => (
    <TextField id={`mo-${k}`} label={label} value={d[k]} onValue={(v) => setD({ ...d, [k]: v })} onBlur={() => setTouched({ ...touched, [k]: true })} error={show(k)} {...extra} />
  );
  const known = new Set(Object.values(MANUAL_PATHS));
  return (
    <details className="card card-details">
      <summary>
        <h2>{t('orders.manual.title')}</h2>
      </summary>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setSubmitted(true);
          if (Object.keys(manualErrors(d)).length) {
            useApp.getState().flash('error', t('orders.manual.fixFields'));
            return;
          }
          void create(manualInput(d)).then((o) => {
            if (o) {
              setD(EMPTY_MANUAL);
              setTouched({});
              setSubmitted(false);
            }
          });
        }}
      >
        <ErrorList title={t('pickup.alsoCheck')} errors={submitted ? unplacedErrors(errors, known) : []} />
        <div className="grid-2">
          {f('orderNumber', t('orders.manual.orderNumber'))}
          {f('name', t('orders.manual.name'))}
          {f('company', t('orders.manual.company'))}
          {f('phone', t('orders.manual.phone'), { type: 'tel' })}
          {f('street', t('orders.manual.street'), { wide: true })}
          {f('street2', t('orders.manual.street2'), { wide: true })}
          {f('postalCode', t('orders.manual.postalCode'))}
          {f('city', t('orders.manual.city'))}
          {f('province', t('orders.manual.province'))}
          {f('countryCode', t('orders.manual.countryCode'))}
          {f('email', t('orders.manual.email'), { type: 'email', wide: true })}
          {f('itemName', t('orders.manual.itemName'))}
          {f('itemSku', t('orders.manual.itemSku'))}
          {f('itemQty', t('orders.manual.itemQty'), { inputMode: 'numeric' })}
          {f('itemPrice', t('orders.manual.itemPrice'), { inputMode: 'decimal' })}
          {f('notes', t('orders.manual.notes'), { wide: true })}
        </div>
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={creating} onMouseDown={keepFocusOnMouseDown}>
            {t('orders.manual.create')}
          </button>
        </div>
      </form>
    </details>
  );
}
