/**
 * Shared settings that came from the warehouse (issue 35, event `settings.changed`): a Settings card
 * showing one of them loads it again, so a save never sends back a value another bench has replaced
 * (what the packer typed is kept: the cards fill their forms with `useEditableForm`).
 */
import { useEffect } from 'react';
import { on } from '../api';

/**
 * Calls `reload` whenever one of `keys` (setting keys: `boxes.presets`, `orders.allowUnpaid`,
 * `customs.identifiers`, `warehouse.claimTimeoutS`, …) came from the warehouse. `reload` should be stable
 * (a `useCallback`); the subscription ends with the component.
 */
export function useSharedSettingsReload(keys: readonly string[], reload: () => void): void {
  const joined = keys.join(',');
  useEffect(() => {
    const wanted = joined.split(',');
    return on('settings.changed', (e) => {
      if (e.keys.some((k) => wanted.includes(k))) reload();
    });
  }, [joined, reload]);
}
