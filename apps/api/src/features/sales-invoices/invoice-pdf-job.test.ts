import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { seedDemo } from '../../seed/sign-ins.ts';
import {
  apiCaller,
  createTestApp,
  createTestDatabase,
  demoTokens,
  type TestDatabase,
  waitUntil,
} from '../../test/helpers.ts';
import { completeCompany, draftBody } from './test-support.ts';

let db: TestDatabase;
let app: App;
let dataDir: string;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedDemo(db.db);
  await completeCompany(db.db);
  dataDir = await mkdtemp(path.join(tmpdir(), 'fvg-invoice-pdf-'));
  // With the job worker: issuing queues the PDF, the worker renders and stores it.
  app = await createTestApp(db, { dataDir, jobsEnabled: true });
});
afterAll(async () => {
  await app.close();
  await db.drop();
  await rm(dataDir, { recursive: true, force: true });
});

const call = apiCaller(() => app);

it('issuing queues the PDF job; the worker stores it as the invoice’s document, which the customer downloads', async () => {
  const { staff, acme } = await demoTokens(app);
  const acmeId = (
    await db.db.selectFrom('parties').select('id').where('code', '=', 'ACME').executeTakeFirstOrThrow()
  ).id;
  const dossier = await call('POST', '/dossiers', staff, {
    type: 'domestic',
    mode: 'road',
    customerId: acmeId,
  });
  const d = await call('POST', '/sales-invoices', staff, draftBody(acmeId, { dossierId: dossier.body.id }));
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
  const pdf = await app.inject({ method: 'GET', url: `/api/sales-invoices/${d.body.id}/pdf`, headers: acme });
  expect(pdf.statusCode).toBe(200);
  expect(pdf.rawPayload.length).toBe(Number(doc?.size_bytes));
  // The customer finds it among the dossier's documents too.
  const listed = await call('GET', `/documents/${doc?.id}`, acme);
  expect(listed.status).toBe(200);
});
