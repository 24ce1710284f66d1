/**
 * The station core, built once by each transport (DESIGN.md "The pieces").
 */
export { invokeCommand } from './handlers/invoke';
