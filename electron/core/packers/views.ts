/**
 * Packers as the screens see them (shared/contract/packers.ts): the store's
 * records (store/packers-repo.ts) mapped field by field.
 */
import type { PackerView } from '../../../shared/contract/packers';
import type { PackerRecord } from '../store';

/** A stored packer as `packers.list`, `packers.save` and the session (`packers.session`, `packers.changed`) show it. */
export function packerView(p: PackerRecord): PackerView {
  return { id: p.id, name: p.name, badge: p.badge, hasPin: p.hasPin, role: p.role };
}
