/* The declarations area's public entry: what other features may use (ADR 0056). */
export { DECLARATION_STATUS_COLORS } from './components/declaration-meta.ts';
