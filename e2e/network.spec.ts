import config from './playwright.config.ts';
import { DEMO, expect, test } from './support.ts';

/*
 * Issue 24 item 1: the app opened over plain HTTP by a server name on the office network (not
 * localhost, which browsers treat as secure) renders and connects its hub. Before the fix, the CSP's
 * upgrade-insecure-requests made Chromium fetch every script over HTTPS and the page stayed blank.
 * Chromium maps the name fvg-office.test to this machine.
 */
const OFFICE_HOST = 'fvg-office.test';

test.use({
  launchOptions: {
    ...config.use?.launchOptions,
    args: [...(config.use?.launchOptions?.args ?? []), `--host-resolver-rules=MAP ${OFFICE_HOST} 127.0.0.1`],
  },
});

test('opened as http://<server name>:<port> from the office network: signs in, the dashboard renders, the hub connects', async ({
  page,
  baseURL,
}) => {
  const office = new URL(baseURL as string);
  office.hostname = OFFICE_HOST;
  const requested: string[] = [];
  page.on('request', (r) => requested.push(r.url()));

  await page.goto(new URL('/login', office).toString());
  await page.getByTestId('login-email').fill(DEMO.staff.email);
  await page.getByTestId('login-password').fill(DEMO.staff.password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(new RegExp(`^http://${OFFICE_HOST}:${office.port}/dossiers$`));

  await page.getByTestId('nav-dashboard').click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('dashboard-cards')).toBeVisible();
  await expect(page.getByTestId('hub-status')).toHaveAttribute('data-status', 'connected');
  // Everything came from the office address over plain HTTP, nothing was upgraded to HTTPS.
  expect(requested.filter((u) => u.startsWith('https:'))).toEqual([]);
  expect(requested.some((u) => u.startsWith(`http://${OFFICE_HOST}:${office.port}/assets/`))).toBe(true);
});
