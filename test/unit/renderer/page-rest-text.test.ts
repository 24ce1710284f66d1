/** The label preview's sentence on the rest of a PDF label's page (issue 23 item 4), in English and Italian. */
import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../renderer/src/lib/i18n';
import { pageRestText } from '../../../renderer/src/lib/page-rest-text';
import type { PageRestView } from '../../../shared/contract';

afterEach(async () => {
  await setLanguage('en');
});

const toFolder: PageRestView = {
  parts: [{ page: 1, width: 182, height: 127.5 }],
  pages: [1],
  a4Printer: { uri: 'file:///srv/a4', name: 'Folder /srv/a4', nameParts: { kind: 'folder', what: '/srv/a4' } },
};

describe('pageRestText', () => {
  it('names each part beside the label and the A4 printer the page goes to', () => {
    expect(pageRestText(toFolder)).toBe(
      'page 1 also holds a 182 × 127.5 mm part beside the label (a second label, the sender’s or a waybill copy); page 1 goes whole to the A4 printer Folder /srv/a4 with every print of the label.',
    );
    expect(pageRestText({ ...toFolder, parts: [...toFolder.parts, { page: 3, width: 90, height: 60 }], pages: [1, 3] })).toContain('pages 1, 3 go whole to the A4 printer Folder /srv/a4');
  });

  it('says the rest is not printed when no A4 printer is set; nothing when the page is the label', () => {
    expect(pageRestText({ ...toFolder, a4Printer: null })).toMatch(/; not printed: no A4 printer is set \(Settings, Packing slips, paper: A4 page\)\.$/);
    expect(pageRestText(null)).toBeNull();
  });

  it('speaks Italian on an Italian bench, numbers the Italian way', async () => {
    await setLanguage('it');
    const text = pageRestText(toFolder);
    expect(text).toContain('la pagina 1 contiene anche una parte di 182 × 127,5 mm');
    expect(text).toContain('va intera alla stampante A4');
  });
});
