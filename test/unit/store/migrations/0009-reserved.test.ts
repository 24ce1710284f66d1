/** Migration 9: the placeholder this branch carries for the step another branch adds as 0009; it changes nothing. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readUserVersion } from '../../../../electron/core/store';
import { m0009Reserved as step } from '../../../../electron/core/store/migrations/0009-reserved';
import { applyStep, databaseBefore, rows, type DatabaseBefore } from './helpers';

let t: DatabaseBefore;
beforeEach(() => (t = databaseBefore(step)));
afterEach(() => t.cleanup());

describe('migration 9 "reserved"', () => {
  it('bumps the version and leaves the schema as it was', () => {
    const schema = () => rows(t.db, "SELECT type, name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%' ORDER BY name");
    const before = schema();
    expect(applyStep(t.db, step)).toEqual([9]);
    expect(readUserVersion(t.db)).toBe(9);
    expect(schema()).toEqual(before);
  });
});
