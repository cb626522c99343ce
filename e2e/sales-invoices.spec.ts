import type { Page } from '@playwright/test';
import { acmeDossier, apiAs, DEMO, expect, screens, signIn, test } from './support.ts';

/*
 * Sales invoices end to end: staff invoice a dossier's revenue charges, issue the draft after a
 * confirmation naming the number it takes, preview and download the PDF, record a payment, credit one
 * line; the customer then finds the invoice with its PDF and UBL. Screenshots of the list, a draft,
 * the issue confirmation, an issued invoice with payments and the customer's view go to
 * test-results/screens/.
 */

/** An export dossier of ACME with two revenue charges in EUR (and a cost), nothing invoiced yet. */
async function dossierWithRevenue(baseURL: string) {
  const dossier = await acmeDossier(baseURL, { type: 'export', customerReference: `INV-${Date.now()}` });
  const staff = await apiAs(baseURL, DEMO.staff);
  await staff.call('PUT', `/dossiers/${dossier.id}/charges`, {
    version: dossier.version,
    charges: [
      {
        kind: 'revenue',
        chargeCode: 'FREIGHT',
        description: 'Sea freight Rotterdam – Shanghai',
        partyId: null,
        amount: '1000.00',
        currency: 'EUR',
        exchangeRate: '1',
      },
      {
        kind: 'revenue',
        chargeCode: 'THC',
        description: 'Terminal handling Rotterdam',
        partyId: null,
        amount: '215.00',
        currency: 'EUR',
        exchangeRate: '1',
      },
      {
        kind: 'cost',
        chargeCode: 'FREIGHT',
        description: 'Carrier all-in rate',
        partyId: null,
        amount: '700.00',
        currency: 'EUR',
        exchangeRate: '1',
      },
    ],
  });
  return dossier;
}

/** Issues the draft on screen through its confirmation; answers the number the confirmation named. */
async function issue(page: Page, screenshot?: string): Promise<string> {
  await page.getByTestId('issue-invoice').click();
  const dialog = page.getByRole('dialog');
  const said = page.getByTestId('issue-number');
  await expect(said).toContainText(/about to take number [A-Z]+-\d{4}-\d{6}/);
  const number = ((await said.textContent()) ?? '').match(/[A-Z]+-\d{4}-\d{6}/)?.[0] as string;
  if (screenshot) await screens(page, screenshot);
  await dialog.getByTestId('confirm-ok').click();
  await expect(page).toHaveURL(new RegExp(`/sales-invoices/${number}$`));
  await expect(page.getByTestId('record-id')).toHaveText(number);
  return number;
}

test('staff invoice a dossier, issue it, preview the PDF, record a payment and credit a line; the customer sees it', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const dossier = await dossierWithRevenue(baseURL as string);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, DEMO.staff);

  // The dossier's invoices tab drafts the charges not invoiced yet.
  await page.goto(`/dossiers/${dossier.number}?tab=invoices`);
  await expect(page.getByTestId('dossier-invoices-empty')).toBeVisible();
  await page.getByTestId('invoice-uninvoiced').click();
  await expect(page).toHaveURL(/\/sales-invoices\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('record-id')).toHaveText('Draft');
  await expect(page.getByTestId('line-1')).toBeVisible();
  // Export transport is exempt (art. 146(1)(e)): one group, no VAT.
  await expect(page.getByTestId('total-net')).toHaveText('€1,215.00');
  await expect(page.getByTestId('total-gross')).toHaveText('€1,215.00');
  await screens(page, 'invoice-draft');

  const number = await issue(page, 'invoice-issue-confirmation');
  await expect(page.getByTestId('status-badge')).toHaveAttribute('data-status', 'issued');

  // The PDF, shown in place and downloaded.
  await page.getByTestId('tab-pdf').click();
  await expect(page.getByTestId('pdf-preview').locator('canvas').first()).toBeVisible({ timeout: 20_000 });
  const pdf = page.waitForEvent('download');
  await page.getByTestId('download-pdf').click();
  expect((await pdf).suggestedFilename()).toMatch(/\.pdf$/);

  // A partial payment: the open amount follows.
  await page.getByTestId('record-payment-header').click();
  await expect(page.getByTestId('field-amount')).toHaveValue('1,215.00');
  await page.getByTestId('field-amount').fill('500');
  await page.getByTestId('field-reference').fill('Bank transfer 4711');
  await page.getByTestId('form-submit').click();
  await expect(page.getByTestId('status-badge')).toHaveAttribute('data-status', 'partially_paid');
  await expect(page.getByTestId('side-open')).toHaveText('€715.00');
  await page.getByTestId('tab-payments').click();
  await expect(page.getByTestId('payment-0')).toContainText('Bank transfer 4711');
  await screens(page, 'invoice-issued-payments');

  // A credit note of the terminal handling line only, issued with its own series.
  await page.getByTestId('credit-note-open').click();
  await page.getByTestId('credit-lines').click();
  await page.getByTestId('credit-line-1').check();
  await page.getByRole('dialog').getByTestId('confirm-ok').click();
  await expect(page).toHaveURL(/\/sales-invoices\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('record-subtitle')).toContainText(`credits ${number}`);
  await expect(page.getByTestId('line-0')).toBeVisible();
  await expect(page.getByTestId('line-1')).toHaveCount(0);
  const creditNumber = await issue(page);
  expect(creditNumber).not.toBe(number);

  // The list, with the invoice and its credit note.
  await page.goto('/sales-invoices');
  await expect(page.getByTestId(`row-${number}`)).toBeVisible();
  await expect(page.getByTestId(`row-${creditNumber}`)).toBeVisible();
  await screens(page, 'invoices-list');

  // The customer finds the issued invoice with its PDF and UBL, read-only.
  await page
    .getByTestId('user-menu')
    .click()
    .catch(() => undefined);
  await page.goto('/logout');
  await signIn(page, DEMO.customer);
  await page.goto(`/sales-invoices/${number}`);
  await expect(page.getByTestId('record-id')).toHaveText(number);
  await expect(page.getByTestId('download-pdf')).toBeVisible();
  await expect(page.getByTestId('download-ubl')).toBeVisible();
  await expect(page.getByTestId('record-payment-header')).toHaveCount(0);
  const ubl = page.waitForEvent('download');
  await page.getByTestId('download-ubl').click();
  expect((await ubl).suggestedFilename()).toMatch(/\.xml$/);
  await screens(page, 'invoice-customer');
});

test('staff make an invoice from scratch: the customer’s VAT comes by default and the totals follow', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, DEMO.staff);
  await page.goto('/sales-invoices');
  await page.getByTestId('new-invoice').click();
  const dialog = page.getByTestId('new-invoice-dialog').getByRole('dialog');
  await page.getByTestId('field-customerId').click();
  await page.getByTestId('field-customerId').fill('Acme');
  await page.getByRole('option', { name: /Acme Trading/ }).click();
  await page.getByTestId('add-line').click();
  await page.getByTestId('field-lines.0.description').fill('Customs clearance, import declaration');
  await page.getByTestId('field-lines.0.unitPrice').fill('100');
  await page.getByTestId('field-lines.0.unitPrice').blur();
  // A Dutch customer of a Dutch forwarder: standard rate, 21 %.
  await expect(page.getByTestId('field-lines.0.vatRate')).toHaveValue('21');
  await expect(page.getByTestId('total-gross')).toHaveText('€121.00');
  await screens(page, 'invoice-new');
  await page.getByTestId('form-submit').click();
  await expect(page).toHaveURL(/\/sales-invoices\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('side-total')).toHaveText('€121.00');
  await expect(dialog).toHaveCount(0);
});

test('staff give a surcharge on a line and a discount on the whole invoice; the totals follow, the issued invoice shows them in words', async ({
  page,
}) => {
  // Screenshots at three sizes and an issue: as the first test, more than the default minute on a busy machine.
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, DEMO.staff);
  await page.goto('/sales-invoices');
  await page.getByTestId('new-invoice').click();
  await page.getByTestId('field-customerId').click();
  await page.getByTestId('field-customerId').fill('Acme');
  await page.getByRole('option', { name: /Acme Trading/ }).click();
  await page.getByTestId('add-line').click();
  await page.getByTestId('field-lines.0.description').fill('Road transport Rotterdam – Venlo');
  await page.getByTestId('field-lines.0.unitPrice').fill('1000');
  await page.getByTestId('field-lines.0.unitPrice').blur();
  await expect(page.getByTestId('field-lines.0.vatRate')).toHaveValue('21');

  // The line's surcharge, in the panel under its row, picked by name.
  await page.getByTestId('details-line-0').click();
  await page.getByTestId('add-line-surcharge-0').click();
  await page.getByTestId('field-lines.0.allowanceCharges.0.type').click();
  await page.getByRole('option', { name: 'Surcharge: Special handling' }).click();
  await page.getByTestId('field-lines.0.allowanceCharges.0.reason').fill('Waiting time at the terminal');
  await page.getByTestId('field-lines.0.allowanceCharges.0.amount').fill('45');
  await page.getByTestId('field-lines.0.allowanceCharges.0.amount').blur();
  await expect(page.getByTestId('line-0-lineNet')).toHaveText('€1,045.00');

  // A discount on the whole invoice, in the VAT of the line: 1045 − 100 = 945.00, VAT 198.45.
  await page.getByTestId('add-document-discount').click();
  await page.getByTestId('field-allowanceCharges.0.reason').fill('Loyalty discount');
  await page.getByTestId('field-allowanceCharges.0.amount').fill('100');
  await page.getByTestId('field-allowanceCharges.0.amount').blur();
  await expect(page.getByTestId('total-excl-vat')).toHaveText('€945.00');
  await expect(page.getByTestId('total-gross')).toHaveText('€1,143.45');
  await screens(page, 'invoice-allowances');
  await page.getByTestId('form-submit').click();
  await expect(page).toHaveURL(/\/sales-invoices\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('side-total')).toHaveText('€1,143.45');

  await issue(page);
  await expect(page.getByTestId('line-0-allowanceSummary')).toHaveText(
    'Plus €45.00 Waiting time at the terminal',
  );
  await expect(page.getByTestId('total-adjustment-0')).toContainText('Discount: Loyalty discount');
  await expect(page.getByTestId('total-gross')).toHaveText('€1,143.45');
});
