/**
 * Packers and who is at the bench (issue 26), on a temp store with a settable
 * clock: PINs kept only as salted hashes, sign-in by badge or PIN, the idle
 * sign-out after the station's setting, the supervisor's unlock that ends
 * after five minutes or when another packer signs in, and the activity rows
 * (with the day in Europe/Rome) they leave.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventName, StationEvents } from '../../../../shared/contract';
import { createEmitter } from '../../../../electron/core/common/events';
import { createPackerSession } from '../../../../electron/core/packers/session';
import { tempStore } from '../store/helpers';

let t: ReturnType<typeof tempStore>;
let events: Array<[EventName, unknown]>;
beforeEach(() => {
  // 23:30 UTC on 26 Nov is 00:30 on 27 Nov in Rome.
  t = tempStore();
  t.clock.set('2026-11-26T23:30:00.000Z');
  events = [];
});
afterEach(() => t.cleanup());

function session() {
  const emitter = createEmitter();
  emitter.on('packers.changed', (v: StationEvents['packers.changed']) => events.push(['packers.changed', v]));
  return createPackerSession(t.store, emitter, () => t.clock.now().getTime());
}

describe('packers repository', () => {
  it('keeps the PIN only as a salted scrypt hash and finds the packer by it', () => {
    const anna = t.store.packers.save({ name: 'Anna', badge: 'B-1', pin: '1234', role: 'supervisor' });
    const marco = t.store.packers.save({ name: 'Marco', badge: 'B-2', pin: '5678', role: 'packer' });
    const stored = t.store.packers.list().map((p) => p.id);
    expect(stored).toEqual([anna.id, marco.id]);
    expect(t.store.packers.byPin('5678')?.name).toBe('Marco');
    expect(t.store.packers.byPin('0000')).toBeUndefined();
    expect(t.store.packers.byBadge('B-1')?.name).toBe('Anna');
    // A changed name keeps the PIN when none is given; null removes it.
    expect(t.store.packers.save({ id: marco.id, name: 'Marco R.', role: 'packer' })).toMatchObject({ name: 'Marco R.', badge: 'B-2', hasPin: true });
    expect(t.store.packers.save({ id: marco.id, name: 'Marco R.', pin: null, role: 'packer' }).hasPin).toBe(false);
  });

  it('refuses another packer\'s PIN, a supervisor without a PIN, and removing the last supervisor while others remain', () => {
    t.store.packers.save({ name: 'Anna', pin: '1234', role: 'supervisor' });
    const marco = t.store.packers.save({ name: 'Marco', role: 'packer' });
    expect(() => t.store.packers.save({ id: marco.id, name: 'Marco', pin: '1234', role: 'packer' })).toThrow(/pin: another packer/);
    expect(() => t.store.packers.save({ name: 'Sara', role: 'supervisor' })).toThrow(/pin: a supervisor needs a PIN/);
    const anna = t.store.packers.byPin('1234')!;
    expect(() => t.store.packers.remove(anna.id)).toThrow(/last supervisor/);
    expect(t.store.packers.remove(marco.id)).toBe(true);
    expect(t.store.packers.remove(marco.id)).toBe(false);
  });
});

describe('the session', () => {
  it('signs an idle packer out after the setting, recording it; the day is the Rome day', () => {
    const anna = t.store.packers.save({ name: 'Anna', badge: 'B-1', pin: '1234', role: 'supervisor' });
    const s = session();
    s.signIn(anna);
    t.clock.advance(14 * 60_000);
    s.touch();
    expect(s.current()?.name).toBe('Anna');
    t.clock.advance(15 * 60_000 + 1);
    expect(s.current()).toBeNull();
    const acts = t.store.activity.listDays('2026-11-27', '2026-11-27');
    expect(acts.map((a) => a.action)).toEqual(['sign_in', 'sign_out']);
    expect(acts[0]).toMatchObject({ day: '2026-11-27', packerName: 'Anna' });
    expect(events.at(-1)).toEqual(['packers.changed', expect.objectContaining({ packer: null })]);
  });

  it('with packers set, a guarded change needs a supervisor: the unlock lasts five minutes and ends when another packer signs in', () => {
    const s = session();
    expect(() => s.requireSupervisor('printers.set')).not.toThrow();
    t.store.packers.save({ name: 'Anna', pin: '1234', role: 'supervisor' });
    const marco = t.store.packers.save({ name: 'Marco', badge: 'B-2', role: 'packer' });
    expect(() => s.requireSupervisor('printers.set')).toThrow(/printers.set changes money or devices/);
    expect(() => s.unlock('5678')).toThrow(/no supervisor has this PIN/);
    s.unlock('1234');
    expect(s.view().supervisorUnlocked).toBe(true);
    t.clock.advance(5 * 60_000 + 1);
    expect(s.view().supervisorUnlocked).toBe(false);
    s.unlock('1234');
    s.signIn(marco);
    expect(s.view().supervisorUnlocked).toBe(false);
    expect(() => s.requireSupervisor('packers.save')).toThrow(/supervisor/);
  });
});
