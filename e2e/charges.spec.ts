import type { Page } from '@playwright/test';
import { acmeDossier, DEMO, expect, screens, signIn, test } from './support.ts';

/*
 * Job costing in the shared line editor: amounts typed as people write them ('2,450.00'), saved as
 * exact decimals, totals after a reload, and the lines fitting the screen at 1440 and 1280 px wide
 * (nothing cut, no sideways scrollbar over the rows). Screenshots go to test-results/screens/.
 */

/** Every cell of every line lies inside the lines' box, and the box does not scroll sideways. */
async function expectLinesFit(page: Page) {
  const rows = page.getByTestId('charges-lines-rows');
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

test('staff type charges as they write amounts, save, reload and read the totals; the lines fit the screen', async ({
  page,
  baseURL,
}) => {
  const dossier = await acmeDossier(baseURL as string, { customerReference: `COST-${Date.now()}` });
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, DEMO.staff);
  await page.goto(`/dossiers/${dossier.number}?tab=charges`);
  await expect(page.getByTestId('charges-lines-empty')).toContainText('No charges yet');

  // "Add cost" puts the cursor in the new line.
  await page.getByTestId('add-cost').click();
  await expect(page.getByTestId('field-charges.0.kind')).toBeFocused();
  // The charge by its name, from the vocabulary offers and invoices use too (issue 27 item 4).
  await page.getByTestId('field-charges.0.chargeCode').click();
  await page.getByRole('option', { name: 'Freight', exact: true }).click();
  await page
    .getByTestId('field-charges.0.description')
    .fill('Ocean freight Shanghai – Rotterdam, 1 × 40′ HC, carrier all-in rate incl. BAF');
  await page.getByTestId('field-charges.0.partyId').click();
  await page.getByTestId('field-charges.0.partyId').fill('Acme');
  await page.getByRole('option', { name: /Acme Trading/ }).click();
  await page.getByTestId('field-charges.0.amount').fill('2,450.00');
  await page.getByTestId('field-charges.0.amount').blur();
  await expect(page.getByTestId('field-charges.0.amount')).toHaveValue('2,450.00');

  await page.getByTestId('add-revenue').click();
  await expect(page.getByTestId('field-charges.1.kind')).toBeFocused();
  await page.getByTestId('field-charges.1.chargeCode').click();
  await page.getByRole('option', { name: 'Freight', exact: true }).click();
  await page.getByTestId('field-charges.1.description').fill('Ocean freight billed to the customer');
  await page.getByTestId('field-charges.1.amount').fill('3,100.5');
  await page.getByTestId('field-charges.1.currency').fill('usd');
  await page.getByTestId('field-charges.1.exchangeRate').fill('0.92');
  await page.getByTestId('field-charges.1.exchangeRate').blur();
  await expect(page.getByTestId('field-charges.1.amount')).toHaveValue('3,100.50');
  // 3,100.50 USD × 0.92 = 2,852.46 EUR; profit 2,852.46 − 2,450.00 = 402.46, exactly.
  await expect(page.getByTestId('charges-profit')).toHaveText('€402.46');

  // A third line by Enter, then removed from the keyboard.
  await page.getByTestId('field-charges.1.description').press('Enter');
  await expect(page.getByTestId('field-charges.2.kind')).toBeFocused();
  await page.getByTestId('field-charges.2.chargeCode').press('Control+Shift+Backspace');
  await expect(page.getByTestId('charge-2')).toHaveCount(0);

  await page.getByTestId('form-submit').click();
  await expect(page.getByTestId('tab-charges')).toContainText('2');
  await expect(page.getByTestId('form-cancel')).toHaveCount(0);

  await page.reload();
  await expect(page.getByTestId('field-charges.0.amount')).toHaveValue('2,450.00');
  await expect(page.getByTestId('field-charges.1.amount')).toHaveValue('3,100.50');
  await expect(page.getByTestId('field-charges.1.currency')).toHaveValue('USD');
  await expect(page.getByTestId('field-charges.0.partyId')).toHaveValue(/Acme Trading/);
  await expect(page.getByTestId('field-charges.0.chargeCode')).toHaveValue('Freight');
  await expect(page.getByTestId('charge-0')).toContainText('Lump sum');
  await expect(page.getByTestId('charges-lines-total-cost')).toHaveText('Cost €2,450.00');
  await expect(page.getByTestId('charges-lines-total-revenue')).toHaveText('Revenue $3,100.50');
  await expect(page.getByTestId('charges-total-cost')).toHaveText('€2,450.00');
  await expect(page.getByTestId('charges-total-revenue')).toHaveText('€2,852.46');
  await expect(page.getByTestId('charges-profit')).toHaveText('€402.46');

  await screens(page, 'dossier-charges', undefined, () => expectLinesFit(page));

  // A letter in an amount is refused in words on the cell, and nothing is saved.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByTestId('field-charges.0.amount').fill('24s0');
  await page.getByTestId('field-charges.0.amount').blur();
  await expect(page.getByText('Enter digits only, e.g. 2,450.00')).toBeVisible();
  await page.getByTestId('form-submit').click();
  await expect(page.getByTestId('field-charges.0.amount')).toBeFocused();
  await expect(page.getByText('Enter digits only, e.g. 2,450.00')).toBeVisible();
  await expect(page.getByTestId('field-charges.0.amount')).toHaveValue('24s0');
  await screens(page, 'dossier-charges-error', undefined, () => expectLinesFit(page));
});
