/** Wire schemas of the Client Shipping API 2026-09; see common.ts and resources.ts. */
export * from './common';
export * from './resources';
export * from './orders';
export * from './lookups';
export * from './finance';
export * from './tracking';
export * from './webhooks';
export { fieldName } from './messages';
