/* The documents area's public entry: what other features may use (ADR 0056). */
export { DocumentsTab } from './components/dossier-documents.tsx';

/** The PDF viewer (pdf.js) for React.lazy: a dynamic import, so it stays in its own chunk. */
export const loadPdfViewer = () => import('./components/pdf-viewer.tsx');
