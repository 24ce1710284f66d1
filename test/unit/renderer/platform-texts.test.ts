/** The platform's Italian texts said in the bench's language (renderer/src/lib/platformTexts.ts). */
import { afterEach, describe, expect, it } from 'vitest';
import type { CreditMovement } from '../../../shared/platform/finance';
import { setLanguage } from '../../../renderer/src/lib/i18n';
import { movementText } from '../../../renderer/src/lib/platformTexts';

const move = (description: string, over: Partial<CreditMovement> = {}): CreditMovement => ({
  id: 1,
  type: 'debit',
  amount: -7.14,
  balance: 500,
  currency: 'EUR',
  description,
  trackingNumber: null,
  pickupId: null,
  invoiceId: null,
  createdAt: '2026-09-24T09:43:00Z',
  ...over,
});

afterEach(async () => {
  await setLanguage('en');
});

describe('credit movements in the bench language', () => {
  it('says the known forms in English on an English bench, as the platform does on an Italian one', async () => {
    await setLanguage('en');
    expect(movementText(move('Spedizione BR1 (BRT Espresso Nazionale)', { trackingNumber: 'BR1' }))).toBe('Shipment BR1 (BRT Espresso Nazionale)');
    expect(movementText(move('Addebito reso al mittente BR2', { trackingNumber: 'BR2' }))).toBe('Return to sender charged, BR2');
    expect(movementText(move('Ricarica credito (bonifico bancario)', { type: 'credit', amount: 100 }))).toBe('Credit top-up (bank transfer)');
    await setLanguage('it');
    expect(movementText(move('Spedizione BR1 (BRT Espresso Nazionale)', { trackingNumber: 'BR1' }))).toBe('Spedizione BR1 (BRT Espresso Nazionale)');
    expect(movementText(move('Ricarica credito (carta di credito)', { type: 'credit', amount: 100 }))).toBe('Ricarica credito (carta di credito)');
  });

  it('says a pickup charged with its day written the bench\'s way (issue 25)', async () => {
    await setLanguage('en');
    expect(movementText(move('Ritiro BRR20261127009001 del 2026-11-27', { pickupId: 'BRR20261127009001' }))).toBe('Pickup BRR20261127009001 on 27/11/2026');
    await setLanguage('it');
    expect(movementText(move('Ritiro BRR20261127009001 del 2026-11-27', { pickupId: 'BRR20261127009001' }))).toBe('Ritiro BRR20261127009001 del 27/11/2026');
    // Without the pickup it names, the text stays as the platform wrote it.
    expect(movementText(move('Ritiro BRR20261127009001 del 2026-11-27'))).toBe('Ritiro BRR20261127009001 del 2026-11-27');
  });

  it('keeps a text whose form or linked shipment does not match, and unknown texts, as the platform wrote them', async () => {
    await setLanguage('en');
    expect(movementText(move('Spedizione BR1 (BRT)', { trackingNumber: 'BR9' }))).toBe('Spedizione BR1 (BRT)');
    expect(movementText(move('Canone piano Pro'))).toBe('Canone piano Pro');
    expect(movementText(move('Ricarica credito (assegno)', { type: 'credit' }))).toBe('Credit top-up (assegno)');
  });
});
