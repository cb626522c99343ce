import { expect, it } from 'vitest';
import { apiTest } from '../../test/api-test.ts';
import { waitUntil } from '../../test/helpers.ts';
import { completeCompany, draftBody } from './test-support.ts';

// With the job worker: issuing queues the PDF, the worker renders and stores it.
const setup = apiTest({ prepare: completeCompany, files: 'fvg-invoice-pdf-', config: { jobsEnabled: true } });
const { db, staff, acme, partyId, call } = setup;

it('issuing queues the PDF job; the worker stores it as the invoice’s document, which the customer downloads', async () => {
  const dossier = await call('POST', '/dossiers', staff, {
    type: 'domestic',
    mode: 'road',
    customerId: partyId.ACME,
  });
  const d = await call(
    'POST',
    '/sales-invoices',
    staff,
    draftBody(partyId.ACME, { dossierId: dossier.body.id }),
  );
  const issued = await call('POST', `/sales-invoices/${d.body.id}/issue`, staff, { version: d.body.version });
  expect(issued.status).toBe(200);
  const stored = () =>
    db.db
      .selectFrom('documents')
      .select(['id', 'file_name', 'size_bytes'])
      .where('record_type', '=', 'invoice')
      .where('record_id', '=', d.body.id as string)
      .execute();
  await waitUntil('the invoice PDF stored by the job', async () => (await stored()).length === 1);
  const [doc] = await stored();
  expect(doc?.file_name).toBe(`${issued.body.number}.pdf`);
  const pdf = await setup.app.inject({
    method: 'GET',
    url: `/api/sales-invoices/${d.body.id}/pdf`,
    headers: acme,
  });
  expect(pdf.statusCode).toBe(200);
  expect(pdf.rawPayload.length).toBe(Number(doc?.size_bytes));
  // The customer finds it among the dossier's documents too.
  const listed = await call('GET', `/documents/${doc?.id}`, acme);
  expect(listed.status).toBe(200);
});
