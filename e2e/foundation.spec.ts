import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { PRODUCT_ROUTES, ROUTES } from '../apps/web/src/lib/route-table.ts';
import {
  apiAs,
  app,
  DEMO,
  expect,
  samplePath,
  signIn,
  signInThroughForm,
  test,
  waitForMail,
} from './support.ts';

const authRoutes = ROUTES.filter((r) => r.group === 'auth');
/** The specification's own auth routes (the product adds a few, listed in PRODUCT_ROUTES). */
const specAuthRoutes = authRoutes.filter((r) => !PRODUCT_ROUTES.includes(r.name));
const guestRoutes = ROUTES.filter((r) => r.group === 'guest');

test('signing in lands on /dossiers, stores bearerToken and sends it as a Bearer header', async ({
  page,
}) => {
  // The one test that signs in by typing into the form; the others sign in through support.ts's signIn.
  await signInThroughForm(page, DEMO.admin);
  const token = await page.evaluate(() => localStorage.getItem('bearerToken'));
  expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);

  const meRequest = page.waitForRequest((r) => r.url().endsWith('/api/me'));
  await page.reload();
  expect((await meRequest).headers().authorization).toBe(`Bearer ${token}`);
  await expect(page.getByTestId('screen-frame')).toHaveAttribute('data-route', 'dossiers');
});

test('wrong credentials show the server message and keep the visitor on /login', async ({ page }) => {
  await page.goto('/login');
  await page.getByTestId('login-email').fill('staff@fvg.local');
  await page.getByTestId('login-password').fill('not-the-password');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-error')).toContainText('The email or password is incorrect.');
  await expect(page).toHaveURL(/\/login/);
  expect(await page.evaluate(() => localStorage.getItem('bearerToken'))).toBeNull();
});

test('every auth route redirects to /login when signed out', async ({ page }) => {
  expect(specAuthRoutes).toHaveLength(24);
  // The product's own screens are guarded the same way.
  expect(authRoutes.map((r) => r.path)).toEqual(
    expect.arrayContaining(['/parties', '/admin/users', '/admin/integration-keys']),
  );
  for (const route of authRoutes) {
    await page.goto(samplePath(route.path));
    await expect(page, route.path).toHaveURL(/\/login(\?|$)/);
  }
});

test('every guest route redirects a signed-in user to /dossiers, except the password reset', async ({
  page,
}) => {
  await signIn(page, DEMO.staff);
  for (const route of guestRoutes) {
    await page.goto(route.path);
    if (route.path === '/guest/password/reset') {
      await expect(page).toHaveURL(/\/guest\/password\/reset/);
      await expect(page.getByRole('heading', { name: 'Reset my password' })).toBeVisible();
    } else {
      await expect(page, route.path).toHaveURL(/\/dossiers$/);
    }
  }
});

test('/logout clears the token and goes to /login', async ({ page }) => {
  await signIn(page, DEMO.staff);
  await page.goto('/logout');
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('bearerToken'))).toBeNull();
  await page.goto('/dossiers');
  await expect(page).toHaveURL(/\/login/);
});

test('the user menu signs out', async ({ page }) => {
  await signIn(page, DEMO.staff);
  await page.getByTestId('user-menu').click();
  await page.getByTestId('menu-sign-out').click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('bearerToken'))).toBeNull();
});

test('/ leads to the dossiers (through sign-in when signed out); an unknown path shows the not-found page', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fdossiers$/);
  await page.goto('/no/such/page');
  await expect(page.getByTestId('not-found')).toBeVisible();
  await signIn(page, DEMO.staff);
  await page.goto('/');
  await expect(page).toHaveURL(/\/dossiers$/);
  await expect(page.getByTestId('list-page')).toBeVisible();
  await page.goto('/dossiers/D-1/nothing-here');
  await expect(page.getByTestId('not-found')).toBeVisible();
});

test('titles follow the rule: screen title, route id, FVG', async ({ page, baseURL }) => {
  await page.goto('/login');
  await expect(page).toHaveTitle('Sign in · FVG');
  await signIn(page, DEMO.admin);
  await expect(page).toHaveTitle('Dossiers · FVG');
  await page.goto('/dossiers/D-2026-000042');
  await expect(page).toHaveTitle('Dossier · D-2026-000042 · FVG');
  await page.goto('/sales-invoices/INV-9');
  await expect(page).toHaveTitle('Sales invoice · INV-9 · FVG');
  await page.goto('/declarations/transit/77/alt');
  await expect(page).toHaveTitle('Transit declaration (SAD) · 77 · FVG');
  // A draft invoice has no number yet: titled "draft", never by its id (issue 27 item 1).
  const admin = await apiAs(baseURL as string, DEMO.admin);
  const drafts = await admin.call<{ items: { id: string }[] }>('GET', '/sales-invoices?status=draft');
  const draft = drafts.items[0];
  expect(draft, 'the demo has a draft invoice').toBeTruthy();
  await page.goto(`/sales-invoices/${draft?.id}`);
  await expect(page.getByTestId('record-id')).toHaveText('Draft');
  await expect(page).toHaveTitle('Sales invoice · draft · FVG');
  // A party opened by its id takes its code's address (ADR 0071).
  const parties = await admin.call<{ items: { id: string; code: string }[] }>('GET', '/parties?q=ACME');
  const acme = parties.items.find((p) => p.code === 'ACME');
  await page.goto(`/parties/${acme?.id}`);
  await expect(page).toHaveURL('/parties/ACME');
  await expect(page).toHaveTitle('Party · ACME · FVG');
});

test('the footer shows the version and the service worker is registered at /sw.js with scope /', async ({
  page,
  baseURL,
}) => {
  await signIn(page, DEMO.staff);
  await expect(page.getByTestId('app-version')).toHaveText('v1.1.34');
  const registration = await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    return { scope: reg.scope, script: reg.active?.scriptURL };
  });
  expect(registration.scope).toBe(`${baseURL}/`);
  expect(registration.script).toBe(`${baseURL}/sw.js`);
});

test('the warehouse is hidden without cw_access and shown with it', async ({ page }) => {
  await signIn(page, DEMO.staff);
  await expect(page.getByTestId('nav-dossiers')).toBeVisible();
  await expect(page.getByTestId('nav-stock')).toHaveCount(0);
  await expect(page.getByTestId('nav-shipments')).toHaveCount(0);
  for (const p of [
    '/stock',
    '/stock/S-1',
    '/stock/S-1/tree',
    '/shipments',
    '/shipments/1',
    '/shipments-alt/1',
    '/shipments/1/edit',
  ]) {
    await page.goto(p);
    await expect(page.getByTestId('no-access'), p).toBeVisible();
  }
  await page.goto('/logout');
  await signIn(page, DEMO.customer);
  await expect(page.getByTestId('nav-stock')).toBeVisible();
  await page.goto('/stock');
  await expect(page.getByTestId('screen-frame')).toHaveAttribute('data-route', 'stock');
});

test('the admin screens are in the admin’s navbar only; staff who open them get no access', async ({
  page,
}) => {
  await signIn(page, DEMO.admin);
  await expect(page.getByTestId('nav-admin-users')).toBeVisible();
  await page.getByTestId('nav-admin-integration-keys').click();
  await expect(page).toHaveURL(/\/admin\/integration-keys$/);
  await expect(page).toHaveTitle('Integration keys · FVG');
  await page.goto('/logout');
  await signIn(page, DEMO.staff);
  await expect(page.getByTestId('nav-admin-integration-keys')).toHaveCount(0);
  for (const p of ['/admin/users', '/admin/integration-keys']) {
    await page.goto(p);
    await expect(page.getByTestId('no-access'), p).toBeVisible();
  }
});

test('the header search box goes to /search', async ({ page }) => {
  await signIn(page, DEMO.staff);
  await page.getByTestId('header-search').fill('MSCU1234565');
  await page.getByTestId('header-search').press('Enter');
  await expect(page).toHaveURL(/\/search\?q=MSCU1234565/);
});

test('forgot password, mail, reset, then sign in with the new password', async ({ page }) => {
  // A user of its own, created by the operator command against the running app's database.
  const email = `reset-${Date.now()}@acme.example`;
  await promisify(execFile)(
    'npm',
    [
      'run',
      '-s',
      'cli',
      '--',
      'users:add',
      '--email',
      email,
      '--password',
      'first-password-1',
      '--role',
      'customer',
      '--party',
      'ACME',
    ],
    {
      cwd: path.resolve(import.meta.dirname, '..'),
      env: { ...process.env, DATA_DIR: app().dataDir, DATABASE_URL: '' },
    },
  );

  await page.goto('/login');
  await page.getByTestId('link-password-forgot').click();
  await expect(page).toHaveURL(/\/password-forgot$/);
  await page.getByTestId('password-forgot-email').fill(email);
  await page.getByTestId('password-forgot-submit').click();
  await expect(page.getByTestId('password-forgot-sent')).toBeVisible();

  const mail = await waitForMail(email);
  const link = /(http:\/\/localhost:\d+\/guest\/password\/reset\?token=[\w-]+)/.exec(mail)?.[1];
  expect(link).toBeTruthy();
  await page.goto(link as string);
  await page.getByTestId('password-reset-password').fill('second-password-2');
  await page.getByTestId('password-reset-confirm').fill('second-password-2');
  await page.getByTestId('password-reset-submit').click();
  await expect(page.getByTestId('password-reset-done')).toBeVisible();

  // The link works once.
  await page.goto(link as string);
  await page.getByTestId('password-reset-password').fill('third-password-3');
  await page.getByTestId('password-reset-confirm').fill('third-password-3');
  await page.getByTestId('password-reset-submit').click();
  await expect(page.getByTestId('password-reset-error')).toContainText('already been used');

  await signInThroughForm(page, { email, password: 'second-password-2' });
});

test('closing a dialog gives the focus back to what opened it (issue 27 item 8)', async ({ page }) => {
  // The dialog has taken the focus (its focus trap), so Escape reaches it.
  const focusInDialog = () =>
    expect
      .poll(() => page.evaluate(() => document.activeElement?.closest('[role="dialog"]') != null))
      .toBe(true);
  await signIn(page, DEMO.staff);
  await page.goto('/declarations');
  for (const opener of ['customs-rates-open', 'new-declaration']) {
    const button = page.getByTestId(opener);
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog')).toBeVisible();
    await focusInDialog();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(button, `${opener} has the focus again`).toBeFocused();
  }
  // A question asked over a record: "Delete draft" of a demo draft declaration.
  await page.goto('/declarations?status=draft');
  await page.getByTestId('data-table').getByRole('link').first().click();
  const remove = page.getByTestId('delete-record');
  await remove.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toBeVisible();
  await focusInDialog();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(remove, 'Delete draft has the focus again').toBeFocused();
});
