import type { Migration } from './migration';

/**
 * Migration 9: reserved for the step another branch adds as 0009 (issues are
 * given their numbers up front). This placeholder does nothing and exists
 * only so versions stay 1..n on this branch; at merge the real 0009 replaces it.
 */
export const m0009Reserved: Migration = {
  version: 9,
  name: 'reserved',
  up() {},
};
