/**
 * The path of a shared file the station follows (issue 24 item 2: one rules
 * file and one product file on a network share for all the benches): typed,
 * followed, or no longer followed. Used by the rules and product cards.
 */
import { useState } from 'react';
import { TextField } from '../components/Field';
import { asStationError } from '../lib/errors';
import { t } from '../lib/i18n';
import { ActionForm } from '../components/Forms';

/** The form: the path field, Follow and Stop following. `onFollow(null)` stops. Give it `key={path}` so a new path resets it. */
export function FollowedFileForm({ id, label, path, onFollow }: { id: string; label: string; path: string | null; onFollow: (path: string | null) => Promise<unknown> }) {
  const [text, setText] = useState(path ?? '');
  const [error, setError] = useState<string | undefined>();
  const run = async (p: string | null) => {
    setError(undefined);
    try {
      await onFollow(p);
    } catch (e) {
      const err = asStationError(e);
      setError(err.details?.path?.[0] ?? err.message);
    }
  };
  return (
    <ActionForm className="grid-3" onSubmit={() => run(text.trim() === '' ? null : text.trim())}>
      <TextField id={id} label={label} value={text} onValue={setText} error={error} />
      <div className="actions">
        <button type="submit" className="btn">
          {t('rules.settings.followSave')}
        </button>
        {path ? (
          <button type="button" className="btn" onClick={() => void run(null)}>
            {t('rules.settings.followStop')}
          </button>
        ) : null}
      </div>
    </ActionForm>
  );
}
