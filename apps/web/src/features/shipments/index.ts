/* The shipments area's public entry: what other features may use (ADR 0056). */
export { SHIPMENT_STATUS_COLORS } from './api/shipment-meta.ts';
