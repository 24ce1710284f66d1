import type { Migration } from './migration';

/**
 * Migration 17 (issue 37 item 2, goods that must travel alone): product data
 * gets `ships_alone` (0 or 1; 0 for every product written before), set for a
 * product that needs a parcel of its own (a glass carafe); the station's box
 * choice never packs it with other pieces.
 */
export const m0017ProductsShipsAlone: Migration = {
  version: 17,
  name: 'products ships alone',
  up(db) {
    db.exec(`ALTER TABLE products ADD COLUMN ships_alone INTEGER NOT NULL DEFAULT 0 CHECK (ships_alone IN (0, 1));`);
  },
};
