/* The dossiers area's public entry: what other features may use (ADR 0056). */
export { dossierOptions } from './api/dossiers-api.ts';
export {
  INCOTERM_OPTIONS,
  STATUS_COLORS as DOSSIER_STATUS_COLORS,
  STATUS_LABELS as DOSSIER_STATUS_LABELS,
} from './components/dossier-meta.ts';
export { validateDossierSearch } from './search.ts';
