import type { Page } from '@playwright/test';
import { DEMO, expect, expectPdfTab, screens, signIn, test } from './support.ts';

/*
 * Sales offers end to end: staff create an offer with two lines in the shared line editor and send
 * it; the customer (demo sign-in of Acme) finds it in their portal and accepts it; the dossier that
 * acceptance booked carries the lines as revenue charges (staff view) and links back to the offer.
 * Screenshots of the list, the new form, the draft, the customer's view and the accepted offer go to
 * test-results/screens/.
 */

/** Every cell of every line lies inside the lines' box, and the box does not scroll sideways. */
async function expectLinesFit(page: Page) {
  const rows = page.getByTestId('offer-lines-rows');
  const fit = await rows.evaluate((box) => {
    const outer = box.getBoundingClientRect();
    const cut = [...box.querySelectorAll('input:not([type=hidden]), textarea, [data-line-field]')].filter(
      (el) => {
        const r = el.getBoundingClientRect();
        return r.left < outer.left - 1 || r.right > outer.right + 1 || r.width < 40;
      },
    );
    return { scrolls: box.scrollWidth > box.clientWidth + 1, cut: cut.length };
  });
  expect(fit).toEqual({ scrolls: false, cut: 0 });
}

async function choose(page: Page, field: string, option: string | RegExp) {
  await page.getByTestId(field).click();
  await page.getByRole('option', { name: option }).first().click();
}

test('staff create and send an offer with two lines, the customer accepts it, and the dossier carries its revenue', async ({
  page,
}) => {
  const cargo = `Machine parts ${Date.now()}`;
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, DEMO.staff);
  await page.getByTestId('nav-sales-offers').click();
  await expect(page).toHaveURL(/\/sales-offers$/);
  await expect(page.getByTestId('list-page')).toBeVisible();

  // New offer: the customer, its contact, the route and cargo, two lines.
  await page.getByTestId('new-offer').click();
  const dialog = page.getByTestId('new-offer-dialog');
  await expect(dialog.getByTestId('offer-form')).toBeVisible();
  await page.getByTestId('field-customerId').click();
  await page.getByTestId('field-customerId').fill('Acme');
  await page.getByRole('option', { name: /Acme Trading/ }).click();
  await page.getByTestId('field-contactName').fill('Alice Buyer');
  await page.getByTestId('field-contactEmail').fill('customer@acme.example');
  await page.getByTestId('field-originLocode').fill('cnsha');
  await page.getByTestId('field-destinationLocode').fill('nlrtm');
  await choose(page, 'field-incoterm', 'FOB');
  await page.getByTestId('field-incotermPlace').fill('Shanghai');
  await choose(page, 'field-dossierType', 'Import');
  await page.getByTestId('field-cargoDescription').fill(cargo);
  await page.getByTestId('field-packages').fill('12');
  await page.getByTestId('field-packageType').fill('pallets');
  await page.getByTestId('field-grossWeightKg').fill('5400');

  await page.getByTestId('add-line').click();
  await expect(page.getByTestId('field-lines.0.chargeCode')).toHaveValue('Freight');
  // An import dossier: the line is exempt (art. 144) at 0 %.
  await expect(page.getByTestId('field-lines.0.vatCode')).toHaveValue('E · Exempt');
  await page.getByTestId('field-lines.0.description').fill('Ocean freight Shanghai – Rotterdam, 1 × 40′ HC');
  await choose(page, 'field-lines.0.unit', 'container');
  await page.getByTestId('field-lines.0.unitPrice').fill('2,450.00');
  await page.getByTestId('field-lines.0.unitPrice').blur();

  await page.getByTestId('add-line').click();
  await choose(page, 'field-lines.1.chargeCode', 'Terminal handling');
  await page.getByTestId('field-lines.1.description').fill('Terminal handling Rotterdam');
  await page.getByTestId('field-lines.1.unitPrice').fill('185.50');
  await page.getByTestId('field-lines.1.unitPrice').blur();
  await expect(page.getByTestId('offer-total-EUR')).toContainText('Net €2,635.50');
  await screens(page, 'offer-new', page.getByTestId('offer-lines'), () => expectLinesFit(page));

  await page.setViewportSize({ width: 1440, height: 900 });
  await dialog.getByTestId('form-submit').click();
  // Created: the dialog turns into the offer (a draft, still editable), addressed by ?open=<id>.
  const detail = page.getByTestId('offer-detail');
  await expect(detail).toHaveAttribute('data-status', 'draft');
  await expect(page).toHaveURL(/[?&]open=/);
  const number = (await page.getByTestId('offer-number').textContent()) ?? '';
  expect(number).toMatch(/^O-\d{4}-\d{6}$/);
  await expect(page.getByTestId('field-lines.1.unitPrice')).toHaveValue('185.50');
  await screens(page, 'offer-draft');
  await screens(page, 'offer-draft-lines', page.getByTestId('offer-lines'), () => expectLinesFit(page));

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId('transition-sent').click();
  await expect(page.getByRole('dialog', { name: 'Send to customer' })).toContainText('customer@acme.example');
  await page.getByTestId('confirm-ok').click();
  await expect(detail).toHaveAttribute('data-status', 'sent');
  await expect(page.getByTestId('offer-form')).toHaveCount(0);

  // The customer finds it in their portal and accepts it.
  await page.goto('/logout');
  await signIn(page, DEMO.customer);
  await page.getByTestId('nav-sales-offers').click();
  const row = page.getByTestId(`row-${number}`);
  await expect(row).toBeVisible();
  await expect(row.getByTestId('row-status')).toHaveText('Sent');
  await screens(page, 'offers-customer-list');
  await page.setViewportSize({ width: 1440, height: 900 });
  await row.click();
  await expect(detail).toHaveAttribute('data-status', 'sent');
  await expect(page.getByTestId('offer-decide-hint')).toBeVisible();
  // No internal notes, no exchange rates, no editing for the customer.
  await expect(page.getByTestId('offer-facts')).not.toContainText('Internal notes');
  await expect(page.getByTestId('offer-form')).toHaveCount(0);
  await screens(page, 'offer-customer');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId('transition-accepted').click();
  await expect(page.getByRole('dialog', { name: 'Accept offer' })).toContainText('We book a dossier for you');
  await page.getByTestId('confirm-ok').click();
  await expect(detail).toHaveAttribute('data-status', 'accepted');
  const dossierLink = page.getByTestId('offer-dossier-link').first();
  await expect(dossierLink).toHaveText(/^Dossier D-\d{4}-\d{6}$/);
  const dossierNumber = ((await dossierLink.textContent()) ?? '').replace('Dossier ', '');

  // Staff: the accepted offer links its dossier; the dossier has the lines as revenue and links back.
  await page.goto('/logout');
  await signIn(page, DEMO.staff);
  await page.goto(`/sales-offers?q=${number}`);
  await expect(page.getByTestId(`row-${number}`)).toContainText(dossierNumber);
  await screens(page, 'offers-list');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId(`row-${number}`).getByTestId('row-status').click();
  await expect(detail).toHaveAttribute('data-status', 'accepted');
  await expect(page.getByTestId('offer-total-EUR')).toContainText('Total €2,635.50');
  await screens(page, 'offer-accepted');

  // Its history in words: created, sent, accepted.
  await page.getByTestId('tab-history').click();
  await expect(page.getByTestId('offer-detail')).toContainText('Accepted');
  await screens(page, 'offer-history');

  // The PDF opens in a tab of its own (fetched with the token, shown from a blob).
  await page.setViewportSize({ width: 1440, height: 900 });
  const [pdf] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByTestId('offer-pdf').click(),
  ]);
  await expectPdfTab(pdf);
  await pdf.close();

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId('offer-dossier-link').first().click();
  await expect(page).toHaveURL(new RegExp(`/dossiers/${dossierNumber}`));
  await expect(page.getByTestId('dossier-summary')).toContainText('Import');
  await expect(page.getByTestId('dossier-offer-link')).toHaveText(number);
  await page.getByTestId('tab-charges').click();
  await expect(page.getByTestId('field-charges.0.description')).toHaveValue(/Ocean freight Shanghai/);
  await expect(page.getByTestId('field-charges.1.description')).toHaveValue('Terminal handling Rotterdam');
  // The same charge, by the same name, and priced as the offer priced it (issue 27 item 4).
  await expect(page.getByTestId('field-charges.1.chargeCode')).toHaveValue('Terminal handling');
  await expect(page.getByTestId('charge-0')).toContainText('1 × container at €2,450.00');
  await screens(page, 'dossier-charges-from-offer');
  await expect(page.getByTestId('charges-total-revenue')).toHaveText('€2,635.50');
  await page.getByTestId('tab-offers').click();
  await expect(page.getByTestId(`row-${number}`)).toBeVisible();
  await screens(page, 'dossier-offers-tab');
});
