import { iso6346CheckDigit } from '../packages/contracts/src/validators/iso6346.ts';
import { acmeDossier, apiAs, DEMO, expect, screens, signIn, test, waitForMail } from './support.ts';

/*
 * Issue 9 in a real browser: a deactivated user's open screen ends its session (the hub closes it,
 * the shell signs out), and a carrier event that two active dossiers claim waits for staff, who see
 * why in words. Screenshots of the touched screens at both sizes go to test-results/screens/.
 */

test('a deactivated user’s open browser is signed out at once, without a reload', async ({
  page,
  baseURL,
}) => {
  const admin = await apiAs(baseURL as string, DEMO.admin);
  const email = `leaver-${Date.now()}@fvg.local`;
  const invited = await admin.call<{ id: string }>('POST', '/users/invite', {
    email,
    name: 'Lea Leaver',
    role: 'staff',
  });
  const token = /guest\/password\/reset\?token=([\w-]+)/.exec(await waitForMail(email))?.[1];
  expect(token).toBeTruthy();
  const password = 'Harbour-Crane-Juniper-73';
  const reset = await fetch(`${baseURL}/api/auth/pwd/reset`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, password }),
  });
  expect(reset.status, await reset.clone().text()).toBe(200);

  await signIn(page, { email, password });
  await expect(page.getByTestId('hub-status')).toHaveAttribute('data-status', 'connected');

  await admin.call('PATCH', `/users/${invited.id}`, { active: false });
  // The hub closes the connection, `me` answers 401, and the shell goes to sign-in by itself.
  await expect(page).toHaveURL(/\/login$/, { timeout: 15_000 });
  await expect(page.getByTestId('login-submit')).toBeVisible();
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('an event two active dossiers claim waits for staff, who read which dossiers claim it', async ({
  page,
  baseURL,
}) => {
  const staff = await apiAs(baseURL as string, DEMO.staff);
  const admin = await apiAs(baseURL as string, DEMO.admin);
  const body = `AMBU${String(Date.now() % 1_000_000).padStart(6, '0')}`;
  const container = `${body}${iso6346CheckDigit(body)}`;
  const parties = await staff.call<{ items: { id: string; code: string }[] }>('GET', '/parties?pageSize=50');
  const today = new Date();
  const day = (offset: number) => new Date(today.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  const numbers: string[] = [];
  for (const code of ['ACME', 'GLOBEX']) {
    const d = await staff.call<{ number: string }>('POST', '/dossiers', {
      type: 'import',
      mode: 'sea',
      customerId: parties.items.find((p) => p.code === code)?.id,
      originLocode: 'CNSHA',
      destinationLocode: 'NLRTM',
      etd: day(-10),
      eta: day(10),
      containers: [{ number: container }],
    });
    numbers.push(d.number);
  }
  const { key } = await admin.call<{ key: string }>('POST', '/integration-keys', {
    name: `ambiguous-${Date.now()}`,
  });
  const at = new Date(Date.now() - 3_600_000).toISOString();
  const posted = await fetch(`${baseURL}/api/container-events`, {
    method: 'POST',
    headers: { authorization: `ApiKey ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      eventID: crypto.randomUUID(),
      eventType: 'EQUIPMENT',
      eventClassifierCode: 'ACT',
      eventDateTime: at,
      eventCreatedDateTime: at,
      equipmentEventTypeCode: 'GTIN',
      equipmentReference: container,
      ISOEquipmentCode: '22G1',
      emptyIndicatorCode: 'LADEN',
      eventLocation: { UNLocationCode: 'NLRTM' },
    }),
  });
  expect(posted.status, await posted.clone().text()).toBeLessThan(300);

  await signIn(page, DEMO.staff);
  await page.goto('/containers?tab=unlinked');
  await page.getByTestId('list-search').fill(container);
  const row = page.locator('[data-testid^="row-unlinked-"]');
  await expect(row).toHaveCount(1);
  const reason = row.getByTestId('unlinked-reason');
  await expect(reason).toHaveText('Ambiguous: 2 dossiers');
  // The title names both claimants with their customers.
  for (const n of [...numbers, 'ACME', 'GLOBEX'])
    await expect(reason).toHaveAttribute('title', new RegExp(n));
  await expect(page.getByLabel('Updating')).toHaveCount(0);
  await screens(page, 'containers-unlinked-ambiguous');

  // The link dialog names the claimants and preselects none of them.
  await row.getByTestId('link-event').click();
  const form = page.getByTestId('link-form');
  for (const n of numbers) await expect(form).toContainText(n);
  await expect(form.getByTestId('field-dossierId')).toHaveValue('');
  await screens(page, 'containers-link-ambiguous');
});

test('a missing dossier says so and leads back; deactivating asks first with the safe answer focused; histories read in words', async ({
  page,
  baseURL,
}) => {
  await signIn(page, DEMO.admin);
  await page.goto('/dossiers/D-1999-999999');
  const missing = page.getByTestId('record-not-found');
  await expect(missing).toContainText('This dossier does not exist');
  await screens(page, 'dossier-not-found');
  await missing.getByRole('link', { name: 'Back to dossiers' }).click();
  await expect(page).toHaveURL(/\/dossiers$/);

  // A user to deactivate, made by the admin through the API.
  const admin = await apiAs(baseURL as string, DEMO.admin);
  const email = `asked-${Date.now()}@fvg.local`;
  await admin.call('POST', '/users/invite', { email, name: 'Asa Asked', role: 'staff' });
  await page.goto('/admin/users');
  await page.getByTestId('enable-admin-mode').click();
  await page.getByTestId('list-search').fill(email);
  await page.getByTestId(`user-active-${email}`).click({ force: true });
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog.getByTestId('confirm-cancel')).toBeVisible();
  await expect(dialog.getByTestId('confirm-cancel')).toBeFocused();
  await screens(page, 'admin-users-deactivate');
  await dialog.getByTestId('confirm-ok').click();
  await expect(
    page.getByText('Asa Asked is deactivated: signed out everywhere and cannot sign in.'),
  ).toBeVisible();

  // A dossier moved through a status: its history shows words and the app's dates, no versions.
  const staff = await apiAs(baseURL as string, DEMO.staff);
  const d = await acmeDossier(baseURL as string);
  await staff.call('POST', `/dossiers/${d.id}/transitions`, {
    to: 'in_transit',
    version: d.version,
    atd: new Date().toISOString().slice(0, 10),
  });
  await page.goto(`/dossiers/${d.number}?tab=history`);
  const history = page.getByTestId('history');
  await expect(history).toContainText('In transit');
  await expect(history).not.toContainText('in_transit');
  await expect(history.getByTestId('history-change').filter({ hasText: /^Version/ })).toHaveCount(0);
  await screens(page, 'dossier-history');
});

test('signing out in the browser ends the token on the server; an admin signs a user out everywhere', async ({
  page,
  baseURL,
}) => {
  const me = (token: string) =>
    fetch(`${baseURL}/api/me`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
  await signIn(page, DEMO.customer);
  const token = (await page.evaluate(() => localStorage.getItem('bearerToken'))) as string;
  expect(await me(token)).toBe(200);
  const other = await apiAs(baseURL as string, DEMO.customer); // the same user elsewhere
  await page.goto('/logout');
  await expect(page).toHaveURL(/\/login$/);
  // A copy of the browser's token no longer works; the user's other session does.
  await expect.poll(() => me(token)).toBe(401);
  expect(await me(other.token)).toBe(200);

  await signIn(page, DEMO.admin);
  await page.goto('/admin/users');
  // Admin mode is off after a fresh sign-in unless this browser kept it: wait for one or the other.
  const adminModeOff = page.getByTestId('enable-admin-mode');
  const search = page.getByTestId('list-search');
  await expect(search.or(adminModeOff)).toBeVisible();
  if (await adminModeOff.isVisible()) await adminModeOff.click();
  await search.fill(DEMO.customer.email);
  await page.getByTestId(`user-end-sessions-${DEMO.customer.email}`).click();
  await expect(page.getByText('Sign Carla Customer out everywhere?')).toBeVisible();
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByText('Carla Customer is signed out on every device.')).toBeVisible();
  expect(await me(other.token)).toBe(401);
});
