/**
 * Part of the Print screen (issue 9): what the label printer in use will
 * print for the shipment's label — the job's own bytes (adapted to the
 * printer's profile; a PDF-only label rasterised to `^GFA`) rendered back to
 * PNG at the profile's dpi and label size by the core (`labels.preview`).
 * Alt+V shows it; the images are scaled to fit, at their own aspect ratio.
 */
import { useEffect, useState } from 'react';
import type { LabelPreviewView } from '../../../shared/contract';
import { invoke } from '../api';
import { t } from '../lib/i18n';
import { pageRestText } from '../lib/page-rest-text';
import { decimalText, stationText } from '../lib/format';
import { useApp } from '../stores/app';

/** The adaptation notes in the bench's language, one sentence; the station's English sentence when a note has no text here. */
function adaptationText(view: LabelPreviewView): string {
  const said = view.adaptationNotes.map((n) => stationText('labelPreview.note', n));
  return said.length > 0 && said.every((s) => s !== null) ? `${said.join('; ')}.` : (view.adaptation ?? '');
}

/**
 * The preview button and images for the label of `trackingNumber`. Give it a `key` of the tracking
 * number and printer URI: another label or printer (profile) starts without the old picture.
 */
export function LabelPreview({ trackingNumber }: { trackingNumber: string }) {
  const [view, setView] = useState<LabelPreviewView | null>(null);
  const [busy, setBusy] = useState(false);
  const show = async () => {
    if (busy) return;
    setBusy(true);
    try {
      setView(await invoke('labels.preview', { trackingNumber }));
    } catch (e) {
      setView(null);
      useApp.getState().fail(t('labelPreview.failed'), e);
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.altKey && (e.key === 'v' || e.key === 'V')) {
        e.preventDefault();
        void show();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });
  return (
    <div className="label-preview">
      <button type="button" className="btn" onClick={() => void show()} disabled={busy} aria-keyshortcuts="Alt+V">
        {t('labelPreview.show')} <kbd>Alt+V</kbd>
      </button>
      {view ? (
        <figure aria-label={t('labelPreview.title')} data-testid="label-preview">
          {view.pngs.map((png, i) => (
            <div key={i}>
              <div className="label-preview-stock">
                <img src={`data:image/png;base64,${png}`} alt={t('labelPreview.alt', { n: i + 1, trackingNumber: view.trackingNumber })} />
                {view.inkMm ? (
                  <span
                    className="label-preview-ink"
                    data-testid="label-ink-box"
                    title={t('labelPreview.ink', { width: decimalText(view.inkMm.width), height: decimalText(view.inkMm.height) })}
                    style={{
                      left: `${(view.inkMm.x / view.widthMm) * 100}%`,
                      top: `${(view.inkMm.y / view.heightMm) * 100}%`,
                      width: `${(view.inkMm.width / view.widthMm) * 100}%`,
                      height: `${(view.inkMm.height / view.heightMm) * 100}%`,
                    }}
                  />
                ) : null}
              </div>
              <figcaption>{t('labelPreview.caption', { dpi: view.dpi, width: decimalText(view.widthMm), height: decimalText(view.heightMm), n: i + 1, count: view.labelCount })}</figcaption>
            </div>
          ))}
          {view.adaptation ? <p data-testid="label-adaptation">{adaptationText(view)}</p> : null}
          {view.pageRest ? <p data-testid="label-page-rest">{pageRestText(view.pageRest)}</p> : null}
        </figure>
      ) : null}
    </div>
  );
}
