/**
 * The whole-file check as the header and Settings show it (`IntegrityView`
 * of shared/contract/views.ts): the store's result (store/integrity.ts)
 * mapped field by field, with whether the last stop was unclean.
 */
import type { IntegrityView } from '../../../shared/contract/views';
import type { IntegrityRecord } from '../store';

/** The check's result as `app.info`/`storage.get` show it; `afterUncleanStop` present (true) only after an unclean stop. */
export function integrityView(r: IntegrityRecord, afterUncleanStop: boolean): IntegrityView {
  return { state: r.state, checkedAt: r.checkedAt, ms: r.ms, problems: [...r.problems], ...(afterUncleanStop ? { afterUncleanStop: true } : {}) };
}
