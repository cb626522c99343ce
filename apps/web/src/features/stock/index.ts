/* The stock area's public entry: what other features may use (ADR 0056). */
export { stockAvailabilityOptions, stockListOptions, stockOptions } from './api/stock-api.ts';
export { CUSTOMS_STATUS_COLORS } from './api/stock-meta.ts';
