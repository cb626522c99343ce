import { createHash } from 'node:crypto';
import type { DocumentType } from '@fvg/contracts';
import { minimalPdf } from '../../features/documents/minimal-pdf.ts';
import { newStorageKey } from '../../features/documents/storage.ts';
import { audit, type DemoContext, type DemoDossier, notAfterNow } from './context.ts';

export interface Paper {
  type: DocumentType;
  title: string;
  visible: boolean;
}

/** The papers a file collects by its stage; costs and carrier invoices stay internal. */
function papersOf(d: DemoDossier): Paper[] {
  const out: Paper[] = [
    { type: 'commercial_invoice', title: 'Commercial invoice', visible: true },
    { type: 'packing_list', title: 'Packing list', visible: true },
  ];
  if (d.status === 'booked') return out;
  const transport: Paper =
    d.mode === 'air'
      ? { type: 'air_waybill', title: 'Air waybill', visible: true }
      : d.mode === 'road'
        ? { type: 'cmr', title: 'CMR consignment note', visible: true }
        : { type: 'bill_of_lading', title: 'Bill of lading', visible: true };
  out.push(transport);
  out.push({ type: 'other', title: 'Carrier invoice (internal)', visible: false });
  if (d.type === 'import' && d.status !== 'in_transit' && d.status !== 'arrived')
    out.push({ type: 'release_note', title: 'Customs release note', visible: true });
  if (d.type === 'transit')
    out.push({ type: 'transit_document', title: 'T1 transit document', visible: true });
  if (d.type === 'export')
    out.push({ type: 'certificate_of_origin', title: 'Certificate of origin', visible: false });
  if (d.status === 'delivered' || d.status === 'closed')
    out.push({ type: 'proof_of_delivery', title: 'Proof of delivery', visible: true });
  return out;
}

/**
 * Small real PDFs on the dossiers that have papers by now, stored as an upload stores them: the file
 * first, then its row and audit entry in the seed's transaction (a crash leaves only files the
 * orphan sweep removes).
 */
export async function seedDocuments(ctx: DemoContext): Promise<{ documents: number; visible: number }> {
  const withPapers = ctx.dossiers.filter((d) => d.status !== 'requested' && d.status !== 'cancelled');
  // Every other booked file has no papers yet; the rest have what their stage brings.
  const papers = withPapers
    .filter((d, i) => !(d.status === 'booked' && i % 2 === 1))
    .flatMap((d) =>
      papersOf(d).map(
        (p, k): DemoPaper => ({
          ...p,
          record: { type: 'dossier', id: d.id },
          dossierId: d.id,
          fileStem: d.number,
          text: `${p.title} - ${d.number} - ${d.customerReference}`,
          uploadedAt: notAfterNow(ctx, new Date(d.createdAt.getTime() + (k + 1) * 47 * 60_000)),
          actor:
            d.status === 'delivered' && p.type === 'proof_of_delivery' ? ctx.users.admin : ctx.users.staff,
        }),
      ),
    );
  return storePapers(ctx, papers);
}

/** A paper to attach to a record: what it is, where it belongs, and who uploaded it when. */
export interface DemoPaper extends Paper {
  record: { type: 'dossier' | 'declaration'; id: string };
  /** The dossier it shows under (customers see a dossier's visible papers). */
  dossierId: string | null;
  /** The file name's start, e.g. the dossier number: `<stem>-<title slug>.pdf`. */
  fileStem: string;
  /** The line printed in the PDF. */
  text: string;
  uploadedAt: Date;
  actor: string;
}

/** Stores papers as an upload does: the files first, a few at a time, then the rows and their audit. */
export async function storePapers(
  ctx: DemoContext,
  list: DemoPaper[],
): Promise<{ documents: number; visible: number }> {
  let documents = 0;
  let visible = 0;
  const papers = list.map((p) => ({
    p,
    bytes: minimalPdf(p.text),
    key: newStorageKey(ctx.namespace, p.uploadedAt),
  }));
  // The files first, a few at a time (each write waits for the disk), then the rows.
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let paper = papers[next++]; paper; paper = papers[next++])
        await ctx.store.put(paper.key, [paper.bytes], { maxBytes: paper.bytes.length });
    }),
  );
  for (const { p, bytes, key } of papers) {
    const slug = p.title
      .replace(/\(.*\)/, '')
      .trim()
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-');
    const fileName = `${p.fileStem}-${slug}.pdf`;
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const { uploadedAt, actor } = p;
    // The upload's insert, with the time the demo says it happened.
    const { id } = await ctx.db
      .insertInto('documents')
      .values({
        record_type: p.record.type,
        record_id: p.record.id,
        dossier_id: p.dossierId,
        storage_key: key,
        file_name: fileName,
        content_type: 'application/pdf',
        size_bytes: bytes.length,
        sha256,
        document_type: p.type,
        visible_to_customer: p.visible,
        uploaded_by: actor,
        updated_by: actor,
        uploaded_at: uploadedAt,
        updated_at: uploadedAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await audit(ctx, {
      kind: 'document',
      id,
      action: 'uploaded',
      actorId: actor,
      changes: [
        { field: 'fileName', from: null, to: fileName },
        { field: 'documentType', from: null, to: p.type },
        { field: 'visibleToCustomer', from: null, to: p.visible },
        { field: 'record', from: null, to: `${p.record.type} ${p.record.id}` },
        { field: 'sha256', from: null, to: sha256 },
      ],
      at: uploadedAt,
    });
    documents++;
    if (p.visible) visible++;
  }
  return { documents, visible };
}
