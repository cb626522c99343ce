/* The company area's public entry: what other features may use (ADR 0056). */
export { companyOptions } from './api/company-api.ts';
