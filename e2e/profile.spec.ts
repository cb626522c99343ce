import type { Browser, Locator, Page } from '@playwright/test';
import { apiAs, closeToasts, DEMO, expect, screens, signIn, test, waitForMail } from './support.ts';

/*
 * Issue 14's profile in a real browser: a number format chosen on /profile reaches the amounts of a
 * list and of a record at once; a password change signs the user out on their other browser while
 * this one carries on; screenshots of /profile at both sizes go to test-results/screens/. Each test
 * runs as a user of its own, so the demo users keep their formats and passwords for the other specs.
 */

let serial = 0;
/** A fresh staff user (invited by the admin, password set through the reset link). */
async function freshStaff(baseURL: string, name: string) {
  const admin = await apiAs(baseURL, DEMO.admin);
  const email = `profile-${Date.now()}-${++serial}@fvg.local`;
  await admin.call('POST', '/users/invite', { email, name, role: 'staff' });
  const token = /guest\/password\/reset\?token=([\w-]+)/.exec(await waitForMail(email))?.[1];
  expect(token).toBeTruthy();
  const password = 'Harbour-Crane-Juniper-73';
  const reset = await fetch(`${baseURL}/api/auth/pwd/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, password }),
  });
  expect(reset.status, await reset.clone().text()).toBe(200);
  return { email, password };
}

/** Picks an option of one of the profile's selects, as a keyboard user would: type, then Enter. */
async function choose(page: Page, testId: string, option: string) {
  const input = page.getByTestId(testId);
  await input.click();
  // The option of THIS select's list: the previous select's list may still be fading out (250 ms).
  await expect(input).toHaveAttribute('aria-controls', /.+/);
  const list = page.locator(`[id="${await input.getAttribute('aria-controls')}"]`);
  await list.getByRole('option', { name: option, exact: true }).click();
}

/** The list's Total column: the last but one (Open is the last). */
const totalCell = (row: Locator) => row.locator('td:nth-last-child(2)');

/** '€1,234.50' written with a decimal comma and a thousands period: '€1.234,50'. */
const commaDecimals = (shown: string) => shown.replace(/[.,]/g, (c) => (c === '.' ? ',' : '.'));

test('a number format chosen on the profile is applied to the amounts of a list and a record', async ({
  page,
  baseURL,
}) => {
  const user = await freshStaff(baseURL as string, 'Fenna Formats');
  const staff = await apiAs(baseURL as string, DEMO.staff);
  // The largest issued invoice: its total has a thousands group whatever the demo data holds.
  const list = await staff.call<{ items: { id: string; number: string | null; status: string }[] }>(
    'GET',
    '/sales-invoices?sort=-total&pageSize=20',
  );
  const invoice = list.items.find((i) => i.number && i.status !== 'draft');
  expect(invoice, 'an issued invoice in the demo data').toBeTruthy();
  const number = invoice?.number as string;

  await signIn(page, user);
  await page.goto(`/sales-invoices?q=${encodeURIComponent(number)}`);
  const row = page.getByTestId(`row-${number}`);
  await expect(row).toBeVisible();
  const before = (await totalCell(row).textContent()) ?? '';
  expect(before).toMatch(/\d,\d{3}\.\d{2}$/);

  await page.goto('/profile');
  await expect(page.getByTestId('profile-number-example')).toContainText('$1,234,567.89');
  await screens(page, 'profile-account', page.getByTestId('profile-account'));
  await choose(page, 'profile-thousands', 'Period (.)');
  await choose(page, 'profile-decimal', 'Comma (,)');
  await expect(page.getByTestId('profile-number-example')).toContainText('$1.234.567,89');
  await choose(page, 'profile-date-format', '2026-11-23');
  await page.getByTestId('profile-formats-save').click();
  await expect(page.getByTestId('profile-formats-save')).toBeDisabled();
  await closeToasts(page);
  await screens(page, 'profile', page.getByTestId('profile-formats'));

  // The list: the same invoice's total, now with the chosen separators.
  await page.goto(`/sales-invoices?q=${encodeURIComponent(number)}`);
  await expect(totalCell(row)).toHaveText(commaDecimals(before));
  // The record: its totals too, and its dates in the chosen format.
  await row.getByRole('link', { name: number }).click();
  await expect(page.getByTestId('record-id')).toHaveText(number);
  await expect(page.getByTestId('total-gross')).toHaveText(/^-?\D*\d{1,3}(\.\d{3})*,\d{2}$/);
  await expect(page.getByTestId('total-gross')).toHaveText(commaDecimals(before));

  // Stored on the user: a new sign-in in a fresh page brings it back.
  await page.evaluate(() => localStorage.clear());
  await signIn(page, user);
  await page.goto(`/sales-invoices?q=${encodeURIComponent(number)}`);
  await expect(totalCell(row)).toHaveText(commaDecimals(before));
});

async function browserAs(browser: Browser, user: { email: string; password: string }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, user);
  await expect(page.getByTestId('hub-status')).toHaveAttribute('data-status', 'connected');
  return { context, page };
}

test('a password change signs the user out on their other browser and keeps this one signed in', async ({
  page,
  browser,
  baseURL,
}) => {
  const user = await freshStaff(baseURL as string, 'Pim Password');
  const other = await browserAs(browser, user);

  await signIn(page, user);
  await page.goto('/profile');
  const newPassword = 'Lantern-Fjord-Otter-4410';
  // A wrong current password is said on its field and changes nothing.
  await page.getByTestId('profile-current-password').fill('not-my-password');
  await page.getByTestId('profile-new-password').fill(newPassword);
  await page.getByTestId('profile-confirm-password').fill(newPassword);
  await page.getByTestId('profile-confirm-password').press('Enter');
  await expect(page.getByText('Your current password is not correct.')).toBeVisible();
  await screens(page, 'profile-password', page.getByTestId('profile-password'));
  await expect(other.page).toHaveURL(/\/dossiers$/);

  await page.getByTestId('profile-current-password').fill(user.password);
  await page.getByTestId('profile-password-save').click();
  await expect(page.getByText('Password changed')).toBeVisible();

  // The other browser: its hub connection closes and the shell signs it out, without a reload.
  await expect(other.page).toHaveURL(/\/login$/, { timeout: 15_000 });
  // This one carries on with its fresh token, across a reload too.
  await page.reload();
  await expect(page.getByTestId('profile-email')).toHaveText(user.email);
  await expect(page.getByTestId('hub-status')).toHaveAttribute('data-status', 'connected', {
    timeout: 15_000,
  });

  // The newest mail to the user (the invitation came before it) is the notice of the change.
  await expect
    .poll(async () => (await waitForMail(user.email)).includes('Your FVG password was changed'), {
      timeout: 15_000,
    })
    .toBe(true);
  const mail = await waitForMail(user.email);
  expect(mail).toContain('Every other device signed in to your account has been signed out.');
  await other.context.close();
});
