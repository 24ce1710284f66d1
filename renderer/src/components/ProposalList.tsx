/**
 * A list of things the station proposes from the bench's shipments (a learnt product weight, a learnt box),
 * each with Accept and Reject; nothing shows when there is none.
 */
import { t } from '../lib/i18n';

/** One proposal: its key (passed back on resolve) and its sentence in the bench's language. */
export interface Proposal<K> {
  key: K;
  text: string;
}

/** The titled list of `proposals`; `onResolve(key, accept)` on each button. */
export function ProposalList<K extends string | number>({ title, proposals, onResolve }: { title: string; proposals: ReadonlyArray<Proposal<K>>; onResolve: (key: K, accept: boolean) => void }) {
  if (!proposals.length) return null;
  return (
    <>
      <h3>{title}</h3>
      <ul className="plain" aria-label={title}>
        {proposals.map((p) => (
          <li key={p.key}>
            {p.text}{' '}
            <button type="button" className="btn btn-small" onClick={() => onResolve(p.key, true)}>
              {t('products.accept')}
            </button>
            <button type="button" className="btn btn-small" onClick={() => onResolve(p.key, false)}>
              {t('products.reject')}
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
