/** Platform API client of the station core (spec: Client Shipping API 2026-09). */
export * from './client';
export * from './errors';
export * from './rate-limit';
