import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import {
  DOCUMENT_CONTENT_TYPES,
  type Document,
  documentContentQuerySchema,
  documentLimitsSchema,
  documentListQuerySchema,
  documentSchema,
  documentUpdateSchema,
  documentUploadResponseSchema,
  listResponseSchema,
  NO_INTERNAL_FIELDS,
  problemSchema,
} from '@fvg/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpProblem } from '../../http/problem.ts';
import type { ExportColumn } from '../../records/export.ts';
import { historyResponse, idParams, listRoutes, problemResponses } from '../../records/routes.ts';
import {
  contentTypeHeader,
  type DocumentsService,
  formatBytes,
  type UploadPart,
} from './documents.service.ts';

/**
 * `Content-Disposition` for a stored name: a plain-ASCII `filename` for old clients (accents
 * dropped, anything else unsafe replaced) and the exact UTF-8 name in RFC 5987 `filename*`.
 * Names are sanitised at upload already; this holds even for a name that was not.
 */
export function contentDisposition(fileName: string, inline: boolean): string {
  const ascii =
    fileName
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .replace(/[^\x20-\x7e]|["\\%/]/g, '_')
      .trim() || 'document';
  const encoded = encodeURIComponent(fileName.replace(/[\\/]/g, '_')).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

const columns: ExportColumn<Document>[] = [
  { header: 'File name', value: (d) => d.fileName },
  { header: 'Document type', value: (d) => d.documentType },
  { header: 'Record type', value: (d) => d.recordType },
  { header: 'Record', value: (d) => d.recordId },
  { header: 'Dossier', value: (d) => d.dossier?.number },
  { header: 'Content type', value: (d) => d.contentType },
  { header: 'Size (bytes)', value: (d) => d.size },
  { header: 'SHA-256', value: (d) => d.sha256 },
  { header: 'Visible to customer', value: (d) => (d.visibleToCustomer ? 'yes' : 'no') },
  { header: 'Duplicate of', value: (d) => d.duplicateOf },
  { header: 'Uploaded by', value: (d) => d.uploadedBy?.name },
  { header: 'Uploaded', value: (d) => d.uploadedAt, time: 'instant' },
];

/** Multipart parser errors as problems with a clear message. */
function multipartProblem(e: unknown, maxFiles: number): unknown {
  const code = (e as { code?: string }).code;
  switch (code) {
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new HttpProblem(
        415,
        'Unsupported media type',
        'Upload documents as multipart/form-data: the fields recordType, recordId, documentType and visibleToCustomer, then the files.',
      );
    case 'FST_FILES_LIMIT':
      return new HttpProblem(413, 'Payload too large', `At most ${maxFiles} files per upload.`);
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new HttpProblem(413, 'Payload too large', 'Too many form fields in this upload.');
    case 'FST_PROTO_VIOLATION':
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return new HttpProblem(400, 'Bad request', 'The multipart form is malformed.');
  }
  // The parser (busboy) reports a broken body with plain errors: no code, only these messages.
  const message = e instanceof Error && !(e instanceof HttpProblem) ? e.message : '';
  if (/boundary not found/i.test(message))
    return new HttpProblem(
      400,
      'Bad request',
      'The multipart form has no boundary: send Content-Type: multipart/form-data; boundary=…',
    );
  if (/unexpected end of (multipart data|form|file)/i.test(message))
    return new HttpProblem(
      400,
      'Bad request',
      'The multipart form ends before its closing boundary: the upload is incomplete. Nothing was saved.',
    );
  if (/^(multipart|malformed)/i.test(message))
    return new HttpProblem(400, 'Bad request', 'The multipart form is malformed. Nothing was saved.');
  return e;
}

async function discard(stream: Readable): Promise<void> {
  if (stream.readableEnded || stream.destroyed) return;
  stream.on('data', () => {});
  stream.resume();
  await finished(stream).catch(() => {});
}

export const documentsRoutes: FastifyPluginAsyncZod<{
  documents: DocumentsService;
  maxBytes: number;
  maxFiles: number;
}> = async (app, { documents, maxBytes, maxFiles }) => {
  app.addHook('onRequest', app.authenticate);
  const tags = ['documents'];

  app.get(
    '/documents/limits',
    {
      schema: {
        tags,
        summary: 'What an upload may be: largest file, files per request, accepted content types',
        response: { 200: documentLimitsSchema, ...problemResponses },
      },
    },
    () => ({ maxBytes, maxFiles, contentTypes: Object.keys(DOCUMENT_CONTENT_TYPES) }),
  );

  app.post(
    '/documents',
    {
      schema: {
        tags,
        summary: `Upload documents (staff): multipart/form-data with the fields recordType, recordId, documentType, visibleToCustomer first, then up to ${maxFiles} files named "files" of at most ${formatBytes(maxBytes)} each`,
        consumes: ['multipart/form-data'],
        response: {
          201: documentUploadResponseSchema,
          ...problemResponses,
          410: problemSchema,
          413: problemSchema,
          415: problemSchema,
        },
      },
    },
    async (request, reply) => {
      // The parser's iterator, read part by part; the service never sees it end early (return() is not
      // passed on), so after a refused file the rest of the request can still be read and discarded.
      let it: AsyncIterator<MultipartFile | MultipartValue> | undefined;
      let current: Readable | undefined;
      let ended = false;
      const parts: AsyncIterable<UploadPart> = {
        [Symbol.asyncIterator]: () => ({
          async next(): Promise<IteratorResult<UploadPart>> {
            try {
              it ??= request.parts()[Symbol.asyncIterator]();
              const r = await it.next();
              if (r.done) {
                ended = true;
                return { done: true, value: undefined };
              }
              const p = r.value;
              if (p.type === 'file') {
                current = p.file;
                return {
                  done: false,
                  value: { kind: 'file', name: p.fieldname, fileName: p.filename, stream: p.file },
                };
              }
              return {
                done: false,
                value: {
                  kind: 'field',
                  name: p.fieldname,
                  value: String(p.value ?? ''),
                  truncated: p.valueTruncated,
                },
              };
            } catch (e) {
              ended = true;
              throw multipartProblem(e, maxFiles);
            }
          },
          async return() {
            return { done: true, value: undefined };
          },
        }),
      };
      try {
        return reply.status(201).send({ items: await documents.upload(request.user, parts) });
      } catch (e) {
        // Read the rest of the request so the client, still sending, receives the answer.
        if (!ended && it && e instanceof HttpProblem) {
          try {
            if (current) await discard(current);
            for (let r = await it.next(); !r.done; r = await it.next()) {
              if (r.value.type === 'file') await discard(r.value.file);
            }
          } catch {
            // the client went away or the form broke: nothing more to read
          }
        }
        // A file stream cut off by a broken form fails inside the service with the parser's error.
        throw multipartProblem(e, maxFiles);
      }
    },
  );

  listRoutes(app, {
    path: '/documents',
    tags,
    summary: 'Documents the user may see; `format=csv|xlsx` streams the whole filtered list',
    query: documentListQuerySchema,
    item: documentSchema,
    read: documents,
    columns,
    visibility: NO_INTERNAL_FIELDS,
    exportAt: 'format',
  });

  app.get(
    '/dossiers/:id/documents',
    {
      schema: {
        tags,
        summary: "A dossier's documents: on the dossier itself and on its records",
        params: z.object({ id: z.string().min(1).max(64) }),
        querystring: documentListQuerySchema,
        response: { 200: listResponseSchema(documentSchema), ...problemResponses },
      },
    },
    (request) => documents.ofDossier(request.user, request.params.id, request.query),
  );

  app.get(
    '/documents/:id',
    { schema: { tags, params: idParams, response: { 200: documentSchema, ...problemResponses } } },
    (request) => documents.get(request.user, request.params.id),
  );

  app.patch(
    '/documents/:id',
    {
      schema: {
        tags,
        summary: 'Change the type, the customer visibility or the file name (staff)',
        params: idParams,
        body: documentUpdateSchema,
        response: { 200: documentSchema, ...problemResponses },
      },
    },
    (request) => documents.update(request.user, request.params.id, request.body),
  );

  app.delete(
    '/documents/:id',
    { schema: { tags, params: idParams, response: { 204: z.null(), ...problemResponses } } },
    async (request, reply) => {
      await documents.remove(request.user, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/documents/:id/content',
    {
      schema: {
        tags,
        summary: 'The file: a download, or with `inline=1` shown in the browser (PDF and images only)',
        params: idParams,
        querystring: documentContentQuerySchema,
        response: { ...problemResponses, 410: problemSchema },
      },
    },
    async (request, reply) => {
      const wantInline = request.query.inline === '1' || request.query.inline === 'true';
      const { document, stream, inline } = await documents.content(
        request.user,
        request.params.id,
        wantInline,
      );
      return reply
        .header('content-type', contentTypeHeader(document.contentType))
        .header('content-length', String(document.size))
        .header('content-disposition', contentDisposition(document.fileName, inline))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .header('etag', `"${document.sha256}"`)
        .send(stream as never);
    },
  );

  app.get(
    '/documents/:id/history',
    { schema: { tags, params: idParams, response: { 200: historyResponse, ...problemResponses } } },
    (request) => documents.history(request.user, request.params.id),
  );
};
