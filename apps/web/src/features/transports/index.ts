/* The transports area's public entry: what other features may use (ADR 0056). */
export {
  STATUS_COLORS as TRANSPORT_STATUS_COLORS,
  STATUS_LABELS as TRANSPORT_STATUS_LABELS,
} from './components/transport-meta.ts';
