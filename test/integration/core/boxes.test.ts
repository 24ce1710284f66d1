/**
 * Box presets (issue 11) in the core: a station on a real platform starts
 * with none (no silent default size, issue 14 item 3); a training station
 * starts with the training boxes; a refused list names its row and field and
 * keeps the saved one; the saved list (and its margin, issue 37) survives a restart.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../electron/core/config';
import type { Station } from '../../../electron/core/station';
import type { Sandbox } from '../../../electron/sandbox/index';
import { startStation } from '../../../electron/shell/start';
import { trainingBoxes } from '../../../shared/contract/boxes';
import { invokerOf } from '../../support/commands';
import { startSandbox, stationConfig, stationFailure, tempDir } from './helpers';

const cleanup: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const f of cleanup.reverse()) await f();
});

const boxes = {
  presets: [
    { name: 'Wine 1', lengthCm: 37, widthCm: 11, heightCm: 11, tareKg: 0.2, barcode: 'W1' },
    { name: 'Flat', lengthCm: 35.5, widthCm: 25, heightCm: 3, tareKg: 0.05, barcode: null },
  ],
  defaultBox: 'Flat',
  marginCm: 1.5,
};

describe('boxes.settings.get / boxes.settings.set', () => {
  it('a station on a platform starts without boxes, refuses a bad list naming the field, keeps what was saved, across a restart', async () => {
    const sb: Sandbox = await startSandbox();
    const tmp = tempDir();
    cleanup.push(() => sb.close(), () => tmp.cleanup());
    let station: Station = await startStation(stationConfig(sb, tmp.dir, `file://${tmp.dir}/labels`), { platformRateLimits: false });
    const invoke = invokerOf(() => station);
    expect(await invoke('boxes.settings.get', {})).toEqual({ presets: [], defaultBox: null, marginCm: 0 });

    expect(await invoke('boxes.settings.set', boxes)).toEqual(boxes);
    const refused = await stationFailure(
      invoke('boxes.settings.set', { presets: [...boxes.presets, { name: 'wine 1', lengthCm: 400, widthCm: 10, heightCm: 10, tareKg: 0, barcode: 'w1' }], defaultBox: 'Flat' }),
    );
    expect(refused.code).toBe('invalid_input');
    expect(Object.keys(refused.details ?? {})).toEqual(expect.arrayContaining(['presets.2.name', 'presets.2.lengthCm', 'presets.2.barcode']));
    // The margin (issue 37) is saved with the boxes: cm, 0 to 10.
    const margin = await stationFailure(invoke('boxes.settings.set', { ...boxes, marginCm: 11 }));
    expect(Object.keys(margin.details ?? {})).toEqual(['marginCm']);
    expect(await invoke('boxes.settings.get', {})).toEqual(boxes);

    await station.close();
    station = await startStation(stationConfig(sb, tmp.dir, `file://${tmp.dir}/labels`), { platformRateLimits: false });
    cleanup.push(() => station.close());
    expect(await invoke('boxes.settings.get', {})).toEqual(boxes);
  });

  it('a training station starts with the training boxes (Medium by default)', async () => {
    const tmp = tempDir();
    const station = await startStation(resolveConfig(['--data-dir', tmp.dir], {}), {});
    cleanup.push(() => tmp.cleanup(), () => station.close());
    expect(await invokerOf(() => station)('boxes.settings.get', {})).toEqual(trainingBoxes('en'));
  });

  it("names a training station's default boxes in the bench's language; saved boxes keep their names", async () => {
    const tmp = tempDir();
    const station = await startStation(resolveConfig(['--data-dir', tmp.dir], {}), {});
    cleanup.push(() => tmp.cleanup(), () => station.close());
    const call = invokerOf(() => station);
    expect(await call('app.language.set', { language: 'it' })).toEqual({ language: 'it' });
    const it = await call('boxes.settings.get', {});
    expect(it.presets.map((p) => p.name)).toEqual(['Piccola', 'Media', 'Grande']);
    expect(it.defaultBox).toBe('Media');
    await call('boxes.settings.set', it);
    await call('app.language.set', { language: 'en' });
    expect((await call('boxes.settings.get', {})).presets.map((p) => p.name)).toEqual(['Piccola', 'Media', 'Grande']);
    await expect(call('app.language.set', { language: 'fr' as 'it' })).rejects.toMatchObject({ code: 'invalid_input' });
  });
});
