/* The sales-invoices area's public entry: what other features may use (ADR 0056). */
export { INVOICE_STATUS_COLORS } from './components/invoice-meta.ts';
