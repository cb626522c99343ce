/** The PDF viewer (pdf.js) for React.lazy: a dynamic import, so it stays in its own chunk. */
export const loadPdfViewer = () => import('./pdf-viewer.tsx');
