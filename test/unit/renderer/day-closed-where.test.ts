/** A bench in a warehouse told where the day is closed (issue 43 item 4), in English and in Italian, with the last close's time, date and count. */
import { afterEach, describe, expect, it } from 'vitest';
import { coreText } from '../../../shared/contract/core-text';
import { coreTextOf } from '../../../renderer/src/lib/coreText';
import { setLanguage } from '../../../renderer/src/lib/i18n';

afterEach(async () => {
  await setLanguage('en');
});

describe('End of day at a bench in a warehouse', () => {
  const last = coreText('dayClosedByWarehouseLast', { time: '18:05', date: '07/12/2026', count: 2 });

  it('says it in English', async () => {
    await setLanguage('en');
    expect(coreTextOf(last.text)).toBe(last.message);
    expect(last.message).toBe('The day closes once for the whole warehouse, on the supervisor’s page: this bench does not close its own day (or here, with the supervisor’s PIN). Last closed at 18:05 on 07/12/2026 with 2 shipments');
  });

  it('says it in Italian, with the same time, date and count', async () => {
    await setLanguage('it');
    expect(coreTextOf(last.text)).toBe(
      'La giornata si chiude una volta per tutto il magazzino, nella pagina del supervisore: questo banco non chiude la propria giornata (o qui, con il PIN del supervisore). Ultima chiusura alle 18:05 del 07/12/2026 con 2 spedizioni',
    );
    expect(coreTextOf(coreText('dayClosedByWarehouse').text)).toBe('La giornata si chiude una volta per tutto il magazzino, nella pagina del supervisore: questo banco non chiude la propria giornata (o qui, con il PIN del supervisore)');
  });
});
