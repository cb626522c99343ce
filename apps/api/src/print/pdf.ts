import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import pdfmake from 'pdfmake';
import type { TDocumentDefinitions } from 'pdfmake/interfaces';

/*
 * One pdfmake for the process (it is a module singleton): Roboto from the package, embedded in every
 * PDF so the document looks the same in every viewer, and no file or URL access beyond those fonts —
 * a document definition is built from user text and must never make the renderer read anything else.
 */
const require = createRequire(import.meta.url);
const regular = require.resolve('pdfmake/fonts/Roboto/Roboto-Regular.ttf');
const fontDir = dirname(regular);

pdfmake.setFonts({
  Roboto: {
    normal: regular,
    bold: `${fontDir}/Roboto-Medium.ttf`,
    italics: `${fontDir}/Roboto-Italic.ttf`,
    bolditalics: `${fontDir}/Roboto-MediumItalic.ttf`,
  },
});
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy((path) => dirname(path) === fontDir);

export interface RenderOptions {
  /** Deflate the content streams (default). Tests turn it off to read the PDF's structure. */
  compress?: boolean;
}

export async function renderPdf(doc: TDocumentDefinitions, options: RenderOptions = {}): Promise<Buffer> {
  return pdfmake.createPdf({ ...doc, compress: options.compress ?? true }).getBuffer();
}
