import type { Migration } from './migration';

/**
 * Migration 16 (issue 35 item 2, packers shared by the warehouse): each packer
 * gets `uid`, an id that is the same at every bench (the row id is this
 * bench's own), so a packer added at one bench is the same packer at the
 * others. Existing packers get a random one; new rows get one from the
 * repository (or from the warehouse when the packer came from there).
 */
export const m0016PackersWarehouseUid: Migration = {
  version: 16,
  name: 'packers warehouse uid',
  up(db) {
    db.exec(`
      ALTER TABLE packers ADD COLUMN uid TEXT;
      UPDATE packers SET uid = lower(hex(randomblob(16))) WHERE uid IS NULL;
      CREATE UNIQUE INDEX packers_uid ON packers (uid);
    `);
  },
};
