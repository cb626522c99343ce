/* The company area's public entry: what other features may use (ADR 0056). */
export { companyOptions, customsRatesOptions } from './api/company-api.ts';
export { CustomsRatesEditor } from './components/customs-rates-editor.tsx';
