/* The container-events area's public entry: what other features may use (ADR 0056). */
export { EVENT_KIND_LABELS, EVENT_TYPE_LABELS } from './components/event-meta.ts';
