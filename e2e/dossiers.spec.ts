import { readFile } from 'node:fs/promises';
import { acmeDossier, apiAs, DEMO, expect, screens, shownDay, signIn, test } from './support.ts';

/** A calendar date `days` from today in the browser's (and this machine's) calendar. */
function dayFromToday(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

test('staff create a dossier, see the container error, fix it, find it, mark it departed, read its history, export it', async ({
  page,
  baseURL,
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

  // Marking it departed asks the day, today by default, and warns: the plan says 17 days from now.
  const staffApi = await apiAs(baseURL as string, DEMO.staff);
  const created = await staffApi.call<{ id: string; version: number }>('GET', `/dossiers/${number}`);
  await staffApi.call('PATCH', `/dossiers/${created.id}`, {
    version: created.version,
    etd: dayFromToday(17),
  });
  await page.goto(`/dossiers/${number}`);
  await page.getByTestId('transition-in_transit').click();
  const dialog = page.getByRole('dialog', { name: 'Mark departed' });
  const today = shownDay(dayFromToday(0));
  await expect(dialog.getByTestId('field-atd')).toHaveValue(today);
  await expect(dialog.getByTestId('transition-warning-atd')).toContainText(
    'This departure is 17 days before the planned departure (ETD)',
  );
  await screens(page, 'dossier-transition-dialog');
  await dialog.getByTestId('transition-dialog-submit').click();
  await expect(page.getByTestId('status-badge')).toHaveText('In transit');
  await expect(dialog).toBeHidden();

  // Recorded: after a reload the summary shows the ATD, and the history the status with it.
  await page.reload();
  await expect(
    page.getByTestId('dossier-summary').getByRole('row', { name: /Departed \(ATD\)/ }),
  ).toContainText(today);
  await page.getByTestId('tab-history').click();
  const entry = page.getByTestId('history-entry').first();
  await expect(entry).toContainText('In transit');
  await expect(entry).toContainText('Departed (ATD)');
  await expect(entry).toContainText(today);

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

test('an edit that clashes with a colleague’s save says so beside Save, and reloads keeping my changes', async ({
  page,
  baseURL,
}) => {
  const origin = baseURL as string;
  const d = await acmeDossier(origin, { cargoDescription: 'Bicycles' });
  const staffApi = await apiAs(origin, DEMO.staff);
  await signIn(page, DEMO.staff);
  await page.goto(`/dossiers/${d.number}?edit=1`);
  await page.getByTestId('field-customerReference').fill('PO-MINE-1');

  // Meanwhile a colleague saves another field.
  await staffApi.call('PATCH', `/dossiers/${d.id}`, {
    version: d.version,
    cargoDescription: 'Bicycles and spare wheels',
  });
  await page.getByTestId('form-submit').click();
  const conflict = page.getByTestId('form-conflict');
  await expect(conflict).toContainText('Someone else saved this record while you were editing it');
  await expect(page.getByTestId('form-reload')).toHaveText('Reload and reapply my changes');
  await screens(page, 'dossier-edit-conflict', conflict);

  await page.getByTestId('form-reload').click();
  await expect(conflict).toBeHidden();
  await expect(page.getByTestId('field-customerReference')).toHaveValue('PO-MINE-1');
  await expect(page.getByTestId('field-cargoDescription')).toHaveValue('Bicycles and spare wheels');
  await expect(page.getByTestId('form-reapplied')).toContainText('Cargo description changed meanwhile');
  await screens(page, 'dossier-edit-reapplied', page.getByTestId('form-reapplied'));
  await page.getByTestId('form-submit').click();
  await expect(page.getByTestId('dossier-form')).toBeHidden();
  const saved = await staffApi.call<{ customerReference: string; cargoDescription: string }>(
    'GET',
    `/dossiers/${d.id}`,
  );
  expect(saved).toMatchObject({
    customerReference: 'PO-MINE-1',
    cargoDescription: 'Bicycles and spare wheels',
  });
});
