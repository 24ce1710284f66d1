/** Station command/event contract shared by core, transports and renderer. */
export * from './commands';
export * from './errors';
export * from './views';
export * from './customs';
export * from './boxes';
export * from './slips';
export * from './items';
export * from './outbox-outcome';
export * from './transport';
export * from './packers';
export * from './reports';
export * from './warehouse';
