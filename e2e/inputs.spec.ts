import { acmeDossier, apiAs, DEMO, expect, screens, signIn, test } from './support.ts';

/*
 * Issue 10, items 6, 7 and 9 in a real browser: Escape in an open dropdown or date picker closes only
 * that (the dialog and what was typed stay, no "Discard your changes?"); the date inputs take typed
 * days and times; a wrong value reads as a plain sentence under its field. Screenshots at both sizes go
 * to test-results/screens/.
 */

test('Escape in a select or a date picker of the new-dossier dialog closes only that; a wrong place reads in plain words', async ({
  page,
}) => {
  await signIn(page, DEMO.staff);
  await page.getByTestId('new-dossier').click();
  const dialog = page.getByRole('dialog').filter({ has: page.getByTestId('field-type') });
  await expect(dialog).toBeVisible();
  await page.getByTestId('field-customerReference').fill('KEEP-ME');

  // A select's options: Escape closes the list, the dialog and the typed value stay.
  await page.getByTestId('field-type').click();
  await expect(page.getByRole('option', { name: 'Export', exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('option', { name: 'Export', exact: true })).toBeHidden();
  await expect(dialog).toBeVisible();
  await expect(page.getByText('Discard your changes?')).toHaveCount(0);
  await expect(page.getByTestId('field-customerReference')).toHaveValue('KEEP-ME');

  // A date picker: the same. Then a typed day is shown in the app's format.
  const etd = page.getByTestId('field-etd');
  await etd.click();
  const calendar = page.locator('[data-dates-dropdown]');
  await expect(calendar).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(calendar).toBeHidden();
  await expect(dialog).toBeVisible();
  await expect(page.getByText('Discard your changes?')).toHaveCount(0);
  await etd.fill('2026-12-05');
  await etd.press('Tab');
  await expect(etd).toHaveValue('5 Dec 2026');
  await expect(page.getByTestId('field-customerReference')).toHaveValue('KEEP-ME');

  // A wrong value: a plain sentence under the field, not the API's wording.
  await page.getByTestId('field-originLocode').fill('XX1');
  await page.getByTestId('form-submit').click();
  await expect(dialog.getByText('Enter a UN/LOCODE such as NLRTM')).toBeVisible();
  await expect(dialog.getByText(/UNLocationCode|Too small|expected/)).toHaveCount(0);
  await screens(page, 'inputs-plain-error');

  // The next Escape (nothing open) closes the dialog, which now asks: the form has changes.
  await page.keyboard.press('Escape');
  await expect(page.getByText('Discard your changes?')).toBeVisible();
});

test('the transport form takes a typed day and time and shows the picker in the app’s format', async ({
  page,
}) => {
  await signIn(page, DEMO.staff);
  await page.goto('/transports');
  await page.getByTestId('new-transport').click();
  const pickup = page.getByTestId('field-pickupFrom');
  await expect(pickup).toBeVisible();
  const day = pickup.locator('input[data-dates-input]');
  await day.fill('4 Mar 2031');
  const [hours, minutes] = [pickup.getByRole('spinbutton').nth(0), pickup.getByRole('spinbutton').nth(1)];
  await hours.fill('09');
  await minutes.fill('15');
  await expect(day).toHaveValue('4 Mar 2031');
  await expect(hours).toHaveValue('09');
  await expect(minutes).toHaveValue('15');

  // The pickup window cannot end before it starts: said in words on the field.
  const until = page.getByTestId('field-pickupTo');
  await until.locator('input[data-dates-input]').fill('3 Mar 2031');
  await until.getByRole('spinbutton').nth(0).fill('08');
  await until.getByRole('spinbutton').nth(1).fill('00');
  await page.getByTestId('form-submit').click();
  await expect(page.getByText('The pickup window ends before it starts')).toBeVisible();

  // The picker open, for the screenshot: the calendar under the date, the time beside it. The end
  // field's picker (opened by typing into it) first finishes closing: with both in the page the
  // check below met two (seen once in CI).
  await expect(page.locator('[data-dates-dropdown]')).toHaveCount(0);
  await day.click();
  await expect(page.locator('[data-dates-dropdown]')).toHaveCount(1);
  await expect(page.locator('[data-dates-dropdown]')).toBeVisible();
  await screens(page, 'inputs-date-time-open');
  await page.keyboard.press('Escape');
  await expect(page.locator('[data-dates-dropdown]')).toBeHidden();
  await expect(pickup).toBeVisible();
});

test('lists and a history show days and moments in the one format', async ({ page, baseURL }) => {
  const dossier = await acmeDossier(baseURL as string, { etd: '2031-03-04', eta: '2031-03-28' });
  await signIn(page, DEMO.staff);
  await page.goto(`/dossiers?q=${dossier.number}`);
  const row = page.getByTestId(`row-${dossier.number}`);
  await expect(row).toContainText('4 Mar 2031');
  await expect(row).toContainText('28 Mar 2031');
  await expect(row).not.toContainText('2031-03');
  await screens(page, 'inputs-dossier-list');
  const staffApi = await apiAs(baseURL as string, DEMO.staff);
  await staffApi.call('PATCH', `/dossiers/${dossier.id}`, { etd: '2031-03-05', version: dossier.version });
  await page.goto(`/dossiers/${dossier.number}`);
  await page.getByTestId('tab-history').click();
  const change = page.getByTestId('history-entry').first();
  await expect(change).toContainText('5 Mar 2031');
  await expect(change).not.toContainText(/\d{4}-\d{2}-\d{2}/);
  await screens(page, 'inputs-dossier-history');
});
