/**
 * The outcome banner: a full-width colour band readable from a metre away
 * (green done, red failed, amber needs attention, blue information). Errors
 * are announced assertively to screen readers.
 */
import { useApp } from '../stores/app';

const ICON = { ok: '✔', error: '✖', warn: '!', info: 'i' } as const;

/** The current outcome banner, or an empty strip. */
export function Banner() {
  const banner = useApp((s) => s.banner);
  if (!banner) return <div className="banner banner-empty" aria-hidden="true" />;
  return (
    <div
      key={banner.seq}
      className={`banner banner-${banner.kind}${banner.outcome ? ` banner-outcome banner-outcome-${banner.outcome}` : ''}`}
      role={banner.kind === 'error' ? 'alert' : 'status'}
      aria-live={banner.kind === 'error' ? 'assertive' : 'polite'}
      data-testid="banner"
      data-kind={banner.kind}
      data-outcome={banner.outcome ?? undefined}
    >
      <span className="banner-icon" aria-hidden="true">
        {ICON[banner.kind]}
      </span>
      <div>
        <div className="banner-title">{banner.title}</div>
        {banner.detail ? <div className="banner-detail">{banner.detail}</div> : null}
      </div>
    </div>
  );
}
