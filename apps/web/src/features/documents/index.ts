/*
 * The documents area's public entry: what other features may use (ADR 0056). Re-exports only: the
 * build treats this file as free of side effects, so a name imported from here brings just its module.
 */
export { DocumentsTab } from './components/dossier-documents.tsx';
export { loadPdfViewer } from './components/load-pdf-viewer.ts';
