/** Auto-update feed choice (electron/main/updates.ts): packaged only, STATION_UPDATE_URL over the built-in feed, https only. */
import { describe, expect, it } from 'vitest';
import { updateFeed } from '../../../electron/main/updates';

describe('updateFeed', () => {
  it('never checks in development', () => {
    expect(updateFeed(false, { STATION_UPDATE_URL: 'https://u.example' }, true)).toBeNull();
  });
  it('takes STATION_UPDATE_URL at run time, else the feed built into the package, else none', () => {
    expect(updateFeed(true, { STATION_UPDATE_URL: ' https://updates.example/station ' }, true)).toEqual({ url: 'https://updates.example/station' });
    expect(updateFeed(true, {}, true)).toEqual({ builtIn: true });
    expect(updateFeed(true, {}, false)).toBeNull();
  });
  it('refuses a feed that is not https', () => {
    expect(() => updateFeed(true, { STATION_UPDATE_URL: 'http://updates.example' }, true)).toThrow(/STATION_UPDATE_URL must be an https/);
  });
});
