import { readFile } from 'node:fs/promises';
import { acmeDossier, apiAs, DEMO, expect, signIn, test } from './support.ts';

test('staff create a dossier, see the container error, fix it, find it, move its status, read its history, export it', async ({
  page,
}) => {
  const ref = `E2E-${Date.now()}`;
  await signIn(page, DEMO.staff);
  await page.getByTestId('new-dossier').click();
  await page.getByTestId('field-type').click();
  await page.getByRole('option', { name: 'Export', exact: true }).click();
  await page.getByTestId('field-mode').click();
  await page.getByRole('option', { name: 'Sea', exact: true }).click();
  await page.getByTestId('field-customerId').click();
  await page.getByTestId('field-customerId').fill('Acme');
  await page.getByRole('option', { name: /Acme Trading/ }).click();
  await page.getByTestId('field-originLocode').fill('NLRTM');
  await page.getByTestId('field-destinationLocode').fill('CNSHA');
  await page.getByTestId('field-customerReference').fill(ref);
  await page.getByTestId('add-container').click();
  await page.getByTestId('field-containers.0.number').fill('MSKU6011673');
  await page.getByTestId('form-submit').click();
  await expect(page.getByText('This container number has a typo: its last digit should be 2')).toBeVisible();
  await expect(page).not.toHaveURL(/\/dossiers\/D-/);

  await page.getByTestId('field-containers.0.number').fill('MSKU6011672');
  await page.getByTestId('form-submit').click();
  await expect(page).toHaveURL(/\/dossiers\/D-\d{4}-\d{6}/);
  const number = ((await page.getByTestId('record-id').textContent()) ?? '').trim();
  expect(number).toMatch(/^D-\d{4}-\d{6}$/);
  await expect(page.getByTestId('status-badge')).toHaveText('Booked');

  // Found in the list by q, and by the status filter carried in the URL.
  await page.goto('/dossiers');
  await page.getByTestId('list-search').fill(ref);
  await expect(page.getByTestId(`row-${number}`)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`q=${ref}`));
  await page.goto(`/dossiers?status=booked&q=${ref}`);
  await expect(page.getByTestId(`row-${number}`)).toBeVisible();
  await page.goto(`/dossiers?status=closed&q=${ref}`);
  await expect(page.getByTestId('list-empty')).toBeVisible();

  // Status change, then the history shows it.
  await page.goto(`/dossiers/${number}`);
  await page.getByTestId('transition-in_transit').click();
  await expect(page.getByTestId('status-badge')).toHaveText('In transit');
  await page.getByTestId('tab-history').click();
  await expect(page.getByTestId('history-entry').first()).toContainText('In transit');

  // Export of the filtered list, as CSV.
  await page.goto(`/dossiers?q=${ref}`);
  await expect(page.getByTestId(`row-${number}`)).toBeVisible();
  await page.getByTestId('export-menu').click();
  const download = page.waitForEvent('download');
  await page.getByTestId('export-csv').click();
  const file = await (await download).path();
  const csv = await readFile(file, 'utf8');
  expect(csv).toContain(number);
  expect(csv).toContain(ref);
});

test('a customer sees only their dossiers, books a transport, and staff see it appear live', async ({
  browser,
  baseURL,
}) => {
  const origin = baseURL as string;
  // One dossier of another customer, that ACME must never see.
  const staffApi = await apiAs(origin, DEMO.staff);
  const globex = (await staffApi.call<{ items: { id: string; code: string }[] }>('GET', '/parties?q=GLOBEX'))
    .items[0];
  const hidden = await staffApi.call<{ number: string }>('POST', '/dossiers', {
    type: 'export',
    mode: 'road',
    customerId: globex?.id,
  });
  const visible = await acmeDossier(origin);

  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await signIn(staff, DEMO.staff);
  await expect(staff.getByTestId('hub-status')).toHaveAttribute('data-status', 'connected');

  const customerContext = await browser.newContext();
  const customer = await customerContext.newPage();
  await signIn(customer, DEMO.customer);
  await expect(customer.getByTestId(`row-${visible.number}`)).toBeVisible();
  await customer.goto(`/dossiers?q=${hidden.number}`);
  await expect(customer.getByTestId('list-empty')).toBeVisible();
  // Another party's dossier reads exactly like a missing one.
  await customer.goto(`/dossiers/${hidden.number}`);
  await expect(customer.getByTestId('record-not-found')).toContainText('This dossier does not exist');

  await customer.goto('/dossiers');
  await customer.getByTestId('book-transport').click();
  await customer.getByTestId('field-type').click();
  await customer.getByRole('option', { name: 'Import', exact: true }).click();
  await customer.getByTestId('field-mode').click();
  await customer.getByRole('option', { name: 'Air', exact: true }).click();
  await customer.getByTestId('field-originLocode').fill('CNSHA');
  await customer.getByTestId('field-destinationLocode').fill('NLAMS');
  await customer.getByTestId('field-cargoDescription').fill('Spare parts for the e2e test');
  await customer.getByTestId('form-submit').click();
  await expect(customer).toHaveURL(/\/dossiers\/D-\d{4}-\d{6}/);
  await expect(customer.getByTestId('status-badge')).toHaveText('Requested');
  const booked = ((await customer.getByTestId('record-id').textContent()) ?? '').trim();

  // The staff list, open all along, shows the new booking without a reload.
  await expect(staff.getByTestId(`row-${booked}`)).toBeVisible({ timeout: 15_000 });
  await staffContext.close();
  await customerContext.close();
});
