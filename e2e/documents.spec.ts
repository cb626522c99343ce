import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { onePagePdf, solidPng, windowsExecutable } from './fixtures/files.ts';
import { acmeDossier, apiAs, DEMO, expect, signIn, test } from './support.ts';

/** The document rows (of a dossier's tab or the /documents list) showing this file name. */
const rowOf = (page: Page, fileName: string): Locator =>
  page.getByTestId(/^row-document-/).filter({ hasText: fileName });

/** pdf.js has drawn the page: the canvas has a size and dark pixels (the text) on white. */
async function expectPdfDrawn(page: Page) {
  await expect(page.getByTestId('pdf-page')).toHaveText('1 / 1');
  const canvas = page.getByTestId('pdf-canvas');
  await expect(canvas).toHaveAttribute('data-rendered-page', '1');
  const drawn = await canvas.evaluate((c: HTMLCanvasElement) => {
    const pixels = c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data ?? new Uint8ClampedArray();
    let dark = 0;
    for (let i = 0; i < pixels.length; i += 4) if ((pixels[i] ?? 255) < 128) dark++;
    return { width: c.width, height: c.height, dark };
  });
  expect(drawn.width).toBeGreaterThan(0);
  expect(drawn.height).toBeGreaterThan(drawn.width); // a portrait page
  expect(drawn.dark).toBeGreaterThan(0);
}

test('staff upload a PDF to a dossier, preview it with pdf.js and download it; the customer sees it once it is visible', async ({
  page,
  browser,
  baseURL,
}) => {
  const dossier = await acmeDossier(baseURL as string);
  const fileName = `BL ${dossier.number}.pdf`;
  const pdf = onePagePdf(`Bill of lading for ${dossier.number}`);

  // The customer has the dossier's documents tab open from the start: nothing to see yet.
  const customerContext = await browser.newContext();
  const customer = await customerContext.newPage();
  await signIn(customer, DEMO.customer);
  await customer.goto(`/dossiers/${dossier.number}?tab=documents`);
  await expect(customer.getByTestId('dossier-documents-empty')).toBeVisible();
  await expect(customer.getByTestId('document-upload')).toHaveCount(0);

  await signIn(page, DEMO.staff);
  await page.goto(`/dossiers/${dossier.number}`);
  await page.getByTestId('tab-documents').click();
  await expect(page.getByTestId('dossier-documents-empty')).toBeVisible();

  // Type first, then the files: the PDF and a program renamed to .pdf, chosen together.
  await expect(page.getByTestId('upload-choose')).toBeDisabled();
  await page.getByTestId('upload-document-type').click();
  await page.getByRole('option', { name: 'Bill of lading', exact: true }).click();
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('upload-choose').click();
  await (await chooser).setFiles([
    { name: fileName, mimeType: 'application/pdf', buffer: pdf },
    { name: 'invoice.pdf', mimeType: 'application/pdf', buffer: windowsExecutable() },
  ]);

  const uploaded = page.getByTestId('upload-item').filter({ hasText: fileName });
  await expect(uploaded).toHaveAttribute('data-status', 'done');
  await expect(uploaded.getByTestId('upload-state')).toHaveText('Uploaded');
  await expect(uploaded.getByTestId('upload-progress')).toHaveCount(0);
  // The server looked at the bytes: a clear refusal on that file only.
  const refused = page.getByTestId('upload-item').filter({ hasText: 'invoice.pdf' });
  await expect(refused).toHaveAttribute('data-status', 'failed');
  await expect(refused.getByTestId('upload-error')).toContainText(
    '“invoice.pdf” is not an accepted type: it is a Windows executable',
  );

  const row = rowOf(page, fileName);
  await expect(row).toBeVisible();
  await expect(row).toContainText('Bill of lading');
  await expect(row).toContainText('Internal');
  await expect(rowOf(page, 'invoice.pdf')).toHaveCount(0);

  // The preview: pdf.js draws the page on a canvas.
  await row.click();
  await expect(page.getByTestId('document-name')).toHaveText(fileName);
  await expectPdfDrawn(page);

  // The download carries the server's file name (Content-Disposition) and the exact bytes.
  const download = page.waitForEvent('download');
  await page.getByTestId('document-download').click();
  expect((await download).suggestedFilename()).toBe(fileName);
  expect((await readFile(await (await download).path())).equals(pdf)).toBe(true);

  // The customer does not see the internal document; staff mark it visible…
  await expect(customer.getByTestId('dossier-documents-empty')).toBeVisible();
  await page.getByTestId('edit-document').click();
  await page.getByTestId('document-form').getByRole('switch', { name: 'Visible to the customer' }).check();
  await page.getByTestId('form-submit').click();
  await expect(page.getByTestId('document-visible')).toBeVisible();

  // …and it appears on the customer's open tab (a live update), where they preview it too, read-only.
  const shared = rowOf(customer, fileName);
  await expect(shared).toBeVisible();
  await shared.click();
  await expectPdfDrawn(customer);
  await expect(customer.getByTestId('document-download')).toBeVisible();
  await expect(customer.getByTestId('edit-document')).toHaveCount(0);
  await expect(customer.getByTestId('delete-document')).toHaveCount(0);
  await customerContext.close();
});

test('a document uploaded by someone else appears in the open list; an image previews as an image', async ({
  page,
  baseURL,
}) => {
  const origin = baseURL as string;
  const dossier = await acmeDossier(origin);
  await signIn(page, DEMO.staff);
  await page.goto(`/documents?dossierId=${dossier.id}`);
  await expect(page.getByTestId('list-empty')).toBeVisible();
  // Upload is offered here because the filters name one dossier.
  await expect(page.getByTestId('upload-documents')).toBeEnabled();
  // The live update needs the hub: an upload before it connected is never told (it flaked once in CI
  // with two workers).
  await expect(page.getByTestId('hub-status')).toHaveAttribute('data-status', 'connected', {
    timeout: 20_000,
  });

  // Another staff member uploads through the API while the list is on screen.
  const other = await apiAs(origin, DEMO.admin);
  const form = new FormData();
  form.append('recordType', 'dossier');
  form.append('recordId', dossier.id);
  form.append('documentType', 'proof_of_delivery');
  form.append('visibleToCustomer', 'false');
  form.append(
    'files',
    new Blob([new Uint8Array(solidPng(40, 30, [200, 30, 30]))], { type: 'image/png' }),
    'pod.png',
  );
  const res = await fetch(`${origin}/api/documents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${other.token}` },
    body: form,
  });
  expect(res.status).toBe(201);

  const row = rowOf(page, 'pod.png');
  await expect(row).toBeVisible();
  await expect(row).toContainText('Proof of delivery');
  // On the file name: the record cell is a link to the dossier.
  await row.getByText('pod.png').click();
  await expect(page).toHaveURL(/open=/);
  const image = page.getByTestId('image-preview');
  await expect(image).toBeVisible();
  expect(await image.getAttribute('src')).toMatch(/^blob:/);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(40);

  // Staff delete it (after confirming); the list empties.
  await page.getByTestId('delete-document').click();
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('document-detail')).toHaveCount(0);
  await expect(page.getByTestId('list-empty')).toBeVisible();
});
