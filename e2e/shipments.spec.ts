import type { Page } from '@playwright/test';
import { apiAs, closeToasts, DEMO, expect, screens, signIn, test } from './support.ts';

/*
 * Shipments end to end: admin receives one article twice (an older and a newer receipt) through the
 * API, orders 70 pieces on screen, releases the shipment and sees the older receipt taken first
 * (FIFO), then confirms a pick, packs and ships it. The customer customer@acme.example (warehouse access)
 * orders from its own stock — a draft — and admin finds it in the list. Screenshots of the list, the
 * editor and the detail go to test-results/screens/.
 */

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** Two receipts of one new article for ACME: 50 pieces 40 days ago, 50 pieces 10 days ago. */
async function twoReceipts(baseURL: string, sku: string) {
  const admin = await apiAs(baseURL, DEMO.admin);
  const parties = await admin.call<{ items: { id: string; code: string }[] }>('GET', '/parties?q=ACME');
  const acme = parties.items.find((p) => p.code === 'ACME') as { id: string };
  const receive = (receivedOn: string, location: string) =>
    admin.call<{ number: string }>('POST', '/stock-receipts', {
      ownerId: acme.id,
      receivedOn,
      customsStatus: 'union',
      lines: [{ sku, description: 'Widget, blue', unit: 'H87', quantity: 50, location }],
    });
  const older = await receive(day(-40), 'RTM1-A-01-01');
  const newer = await receive(day(-10), 'RTM1-B-02-01');
  return { older: older.number, newer: newer.number };
}

/** Picks the line's article by typing its start; the suggestion says what is available. */
async function pickSku(page: Page, index: number, sku: string, available: string) {
  const cell = page.getByTestId(`field-lines.${index}.sku`);
  await cell.click();
  await cell.fill(sku.slice(0, -2));
  const option = page.getByRole('option', { name: new RegExp(`${sku} · ${available}`) });
  await expect(option).toBeVisible();
  await option.click();
}

async function transition(page: Page, to: string, status: string) {
  await page.getByTestId(`transition-${to}`).click();
  await page.getByRole('dialog').getByTestId('confirm-ok').click();
  await expect(page.getByTestId('shipment-status')).toHaveText(status);
}

test('admin ships 70 pieces: the older receipt goes first; the customer orders a draft that admin sees', async ({
  page,
  baseURL,
}) => {
  const sku = `E2E-${Date.now()}`;
  const receipts = await twoReceipts(baseURL as string, sku);

  await signIn(page, DEMO.admin);
  await page.goto('/shipments');
  await page.getByTestId('new-shipment').click();
  await expect(page).toHaveURL(/\/shipments\/new\/edit$/);
  await page.getByTestId('field-ownerId').click();
  await page.getByTestId('field-ownerId').fill('Acme');
  await page.getByRole('option', { name: /Acme Trading/ }).click();
  await page.getByTestId('field-consigneeName').fill('Berlin Retail GmbH');
  await page.getByTestId('field-customerReference').fill(sku);
  await pickSku(page, 0, sku, '100 pieces available');
  await page.getByTestId('field-lines.0.quantity').fill('120');
  await expect(page.getByTestId('availability-warning')).toHaveText('Only 100 pieces available');
  await page.getByTestId('field-lines.0.quantity').fill('70');
  await expect(page.getByTestId('availability-hint')).toHaveText('100 pieces available');
  await screens(page, 'shipment-editor');
  await page.getByTestId('form-submit').click();

  await expect(page).toHaveURL(/\/shipments\/S-\d{4}-\d{6}$/);
  await expect(page.getByTestId('shipment-status')).toHaveText('Draft');
  const number = ((await page.getByTestId('record-id').textContent()) ?? '').trim();
  expect(number).toMatch(/^S-\d{4}-\d{6}$/);
  await expect(page.getByTestId('allocations-empty')).toBeVisible();

  await transition(page, 'released', 'Released');
  const rows = page.getByTestId('allocations').getByTestId(/^allocation-\d$/);
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText(receipts.older);
  await expect(rows.nth(0).getByTestId('allocation-quantity')).toHaveText('50 pieces');
  await expect(rows.nth(1)).toContainText(receipts.newer);
  await expect(rows.nth(1).getByTestId('allocation-quantity')).toHaveText('20 pieces');
  await expect(rows.nth(0).getByTestId('allocation-state')).toHaveText('Reserved');
  await closeToasts(page);
  await screens(page, 'shipment-detail');

  await transition(page, 'picking', 'Picking');
  // Picks confirmed one by one as the picker brings the goods (issue 27 item 6).
  await expect(page.getByTestId('line-picked-1')).toHaveText('0 of 2 picked');
  // The box follows the server's answer (it is checked once the pick is confirmed).
  const box = page.getByRole('checkbox', { name: 'Picked: 50 pieces from RTM1-A-01-01' });
  await box.click();
  await expect(box).toBeChecked();
  await expect(rows.nth(0).getByTestId('allocation-state')).toHaveText('Picked');
  await expect(rows.nth(1).getByTestId('allocation-state')).toHaveText('Reserved');
  await expect(page.getByTestId('line-picked-1')).toHaveText('1 of 2 picked');
  await closeToasts(page);
  await screens(page, 'shipment-picking', page.getByTestId('line-1'));
  // "Mark packed" picks what is left; shipping takes the goods out of stock.
  await transition(page, 'packed', 'Packed');
  await expect(rows.nth(1).getByTestId('allocation-state')).toHaveText('Picked');
  await expect(page.getByRole('checkbox')).toHaveCount(0);
  await transition(page, 'shipped', 'Shipped');
  await expect(rows.nth(0).getByTestId('allocation-state')).toHaveText('Shipped');
  await expect(page.getByTestId('record-actions')).toHaveCount(0);

  await page.goto(`/shipments?reference=${encodeURIComponent(number)}`);
  await expect(page.getByTestId(`row-${number}`)).toContainText('Shipped');

  // The customer orders 5 of what is left (30) from its own stock: a draft for the warehouse to release.
  await page.goto('/logout');
  await signIn(page, DEMO.customer);
  await page.goto('/shipments');
  await page.getByTestId('new-shipment').click();
  await expect(page.getByTestId('field-ownerId')).toHaveValue('Acme Trading B.V.');
  await pickSku(page, 0, sku, '30 pieces available');
  await page.getByTestId('field-lines.0.quantity').fill('5');
  await page.getByTestId('field-customerReference').fill(`${sku}-C`);
  await page.getByTestId('form-submit').click();
  await expect(page).toHaveURL(/\/shipments\/S-\d{4}-\d{6}$/);
  await expect(page.getByTestId('shipment-status')).toHaveText('Draft');
  const ordered = ((await page.getByTestId('record-id').textContent()) ?? '').trim();
  await expect(page.getByTestId('transition-released')).toHaveCount(0);
  await expect(page.getByTestId('edit-record')).toBeVisible();

  await page.goto('/logout');
  await signIn(page, DEMO.admin);
  await page.goto(`/shipments?status=draft`);
  await expect(page.getByTestId(`row-${ordered}`)).toContainText('Acme Trading');
  await screens(page, 'shipments-list');
});
