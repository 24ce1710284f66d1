/**
 * The label preview's sentence on the rest of a PDF label's page (issue 23 item 4,
 * `LabelPreviewView.pageRest`): what else the page holds beside the label and
 * whether the whole page goes to the A4 printer, in the bench's language.
 */
import type { LabelPreviewView } from '../../../shared/contract';
import { decimalText } from './format';
import { printerNameText, t } from './i18n';

/**
 * One sentence: each part beside the label (page, size in mm), then the A4 printer the pages go to, or that
 * they are not printed because no A4 printer is set; null when every page is the label.
 */
export function pageRestText(rest: LabelPreviewView['pageRest']): string | null {
  if (!rest) return null;
  const parts = rest.parts.map((p) => t('labelPreview.rest.part', { page: p.page, width: decimalText(p.width), height: decimalText(p.height) }));
  const where = rest.a4Printer
    ? t('labelPreview.rest.toA4', { count: rest.pages.length, pages: rest.pages.join(', '), printer: printerNameText(rest.a4Printer) })
    : t('labelPreview.rest.noA4');
  return `${[...parts, where].join('; ')}.`;
}
