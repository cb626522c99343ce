/* The parties area's public entry: what other features may use (ADR 0056). */
export { anyPartyLookup, partyOptions } from './api/parties-api.ts';
