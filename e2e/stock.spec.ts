import { gs1CheckDigit } from '../packages/contracts/src/validators/gs1.ts';
import { closeToasts, DEMO, expect, screens, signIn, test } from './support.ts';

/*
 * The customs warehouse's stock screens end to end: an admin (who has warehouse access) receives goods
 * with two pallets through the receipt form, finds them on the stock record, and adjusts one pallet
 * with a reason; staff without cw_access see no warehouse menu entries and "No access". Screenshots of
 * the list, the receipt form and the record go to test-results/screens/.
 */

/** An SSCC no other run used: extension 9, prefix 8712345, a serial from the clock, its check digit. */
function freshSscc(n: number): string {
  const serial = String((Date.now() % 100_000_000) * 10 + n).padStart(9, '0');
  const data = `98712345${serial}`;
  return data + gs1CheckDigit(data);
}

test('an admin receives goods on two pallets, sees them on the stock record, and adjusts one with a reason', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const sku = `E2E-${Date.now().toString(36).toUpperCase()}`;
  const first = freshSscc(1);
  const second = freshSscc(2);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, DEMO.admin);
  await expect(page.getByTestId('nav-stock')).toBeVisible();

  await page.getByTestId('nav-stock').click();
  await expect(page).toHaveURL(/\/stock$/);
  await page.getByTestId('receive-goods').click();
  const dialog = page.getByTestId('receipt-dialog');
  await expect(dialog.getByTestId('receipt-form')).toBeVisible();

  await dialog.getByTestId('field-ownerId').click();
  await dialog.getByTestId('field-ownerId').fill('ACME');
  await page.getByRole('option', { name: /ACME/ }).first().click();
  await dialog.getByTestId('field-inboundMrn').fill('26NL000396000042R1');
  // No declaration of ours holds this MRN: it is another declarant's entry (ADR 0046).
  await dialog.getByTestId('field-inboundMrnExternal').check();
  await dialog.getByTestId('field-lines.0.sku').fill(sku);
  await dialog.getByTestId('field-lines.0.description').fill('Bluetooth speakers');
  await dialog.getByTestId('field-lines.0.quantity').fill('100');
  await dialog.getByTestId('field-lines.0.location').fill('RTM1-A-01');
  await dialog.getByTestId('details-line-0').click();
  await dialog.getByTestId('add-pallet-1').click();
  await expect(dialog.getByTestId('field-lines.0.handlingUnits.0.quantity')).toHaveValue('100');
  await dialog.getByTestId('field-lines.0.handlingUnits.0.quantity').fill('60');
  await dialog.getByTestId('field-lines.0.handlingUnits.0.sscc').fill(first);
  await dialog.getByTestId('field-lines.0.handlingUnits.0.cartons').fill('3');
  await dialog.getByTestId('field-lines.0.handlingUnits.0.cartonQuantity').fill('20');
  await dialog.getByTestId('add-pallet-1').click();
  await dialog.getByTestId('field-lines.0.handlingUnits.1.quantity').fill('40');
  await dialog.getByTestId('field-lines.0.handlingUnits.1.sscc').fill(second);
  await expect(dialog.getByTestId('pallets-sum-1')).toHaveText('The pallets hold 100 pieces of 100 pieces');
  await screens(page, 'stock-receipt-form', dialog.getByTestId('pallets-1'));

  await dialog.getByTestId('form-submit').click();
  await expect(dialog).toBeHidden();
  // The list shows the receipt's stock record.
  const row = page.locator(`[data-testid^="row-${sku}-"]`);
  await expect(row).toBeVisible();
  await expect(row).toContainText('100 pieces');
  await expect(row).toContainText('Customs warehousing');
  await expect(page.getByTestId('filter-receiptId')).toContainText(/Receipt: R-\d{4}-\d{6}/);
  await closeToasts(page);
  await screens(page, 'stock-list', row);

  await row.getByRole('link', { name: sku }).click();
  await expect(page).toHaveURL(/\/stock\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('record-id')).toHaveText(sku);
  // No number of its own: the tab names it by SKU and receipt, never by the id in the address.
  await expect(page).toHaveTitle(new RegExp(`^Stock record · ${sku} · R-\\d{4}-\\d{6} · FVG$`));
  await expect(page.getByTestId('stock-quantities')).toContainText('100 pieces on hand');
  await expect(page.getByTestId('stock-mrn')).toHaveText('26NL000396000042R1');
  await closeToasts(page);
  await page.getByTestId('tab-units').click();
  await expect(page.getByTestId('unit-pallet')).toHaveCount(2);
  await expect(page.getByTestId('unit-carton')).toHaveCount(3);
  await expect(page.getByTestId('units-table')).toContainText(`(00) ${first}`);
  await expect(page.getByTestId('units-table')).toContainText(`(00) ${second}`);
  await screens(page, 'stock-item-units', page.getByTestId('units-table'));

  // Two pieces of the second pallet were found broken.
  await page.getByTestId('adjust-stock').click();
  const adjust = page.getByTestId('adjust-dialog');
  await adjust.getByTestId('field-handlingUnitId').click();
  await page.getByRole('option', { name: new RegExp(second) }).click();
  await adjust.getByTestId('field-quantity').fill('-2');
  await adjust.getByTestId('field-reason').fill('Two broken in the count');
  await adjust.getByTestId('form-submit').click();
  await expect(adjust).toBeHidden();
  await closeToasts(page);
  await page.getByTestId('tab-details').click();
  await expect(page.getByTestId('stock-quantities')).toContainText('98 pieces on hand');
  await screens(page, 'stock-item', page.getByTestId('stock-facts'));

  await page.getByTestId('tab-movements').click();
  const adjustment = page.getByTestId('movement-adjustment');
  await expect(adjustment).toContainText('−2 pieces');
  await expect(adjustment).toContainText('Two broken in the count');
  // The receipt counted each pallet in.
  await expect(page.getByTestId('movement-receipt')).toHaveCount(2);
  await expect(page.getByTestId('movements-table')).toContainText('+60 pieces');
  await expect(page.getByTestId('movements-table')).toContainText('+40 pieces');
  await screens(page, 'stock-item-movements', page.getByTestId('movements-table'));
});

test('staff without warehouse access see no warehouse menu entries and "No access" on the stock screens', async ({
  page,
}) => {
  await signIn(page, DEMO.staff);
  await expect(page.getByTestId('nav-dossiers')).toBeVisible();
  await expect(page.getByTestId('nav-stock')).toHaveCount(0);
  await expect(page.getByTestId('nav-shipments')).toHaveCount(0);
  await page.goto('/stock');
  await expect(page.getByTestId('no-access')).toBeVisible();
  await expect(page.getByTestId('receive-goods')).toHaveCount(0);
  await page.goto('/stock/5a0e8d4c-1b2f-4c3d-8e9f-0a1b2c3d4e5f');
  await expect(page.getByTestId('no-access')).toBeVisible();
});
