import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { test as base, expect, type Locator, type Page } from '@playwright/test';

/** The app under test, started by global-setup.ts; its URL and mail folder come through the environment. */
export const test = base.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies by destructuring
  baseURL: async ({}, use) => {
    await use(process.env.E2E_BASE_URL);
  },
});
export { expect };

export const DEMO = {
  admin: { email: 'admin@fvg.local', password: 'admin-demo-2026' },
  staff: { email: 'staff@fvg.local', password: 'staff-demo-2026' },
  customer: { email: 'customer@acme.example', password: 'customer-demo-2026' },
} as const;

export async function signIn(page: Page, who: { email: string; password: string }) {
  await page.goto('/login');
  await page.getByTestId('login-email').fill(who.email);
  await page.getByTestId('login-password').fill(who.password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/dossiers$/);
}

/** Fills a route's path parameters with sample values. */
export function samplePath(routePath: string): string {
  return routePath.replace('$dossierId', 'D-2026-000042').replace('$id', 'R-7');
}

interface CaughtMail {
  to: string[];
  raw: string;
}

/** Waits for the mail the app sent to `to` over SMTP (the receiver writes each mail to a file). */
export async function waitForMail(to: string, timeoutMs = 15_000): Promise<string> {
  const dir = process.env.E2E_MAIL_DIR as string;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const name of (await readdir(dir)).sort().reverse()) {
      const mail = JSON.parse(await readFile(path.join(dir, name), 'utf8')) as CaughtMail;
      if (mail.to.includes(to)) {
        return mail.raw
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
      }
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
}

/** Signs in through the API (no browser) and returns a small client for setting up test data. */
export async function apiAs(baseURL: string, who: { email: string; password: string }) {
  const login = await fetch(`${baseURL}/api/auth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(who),
  });
  const { Token } = (await login.json()) as { Token: string };
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${baseURL}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${Token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  return { token: Token, call };
}

/** A dossier of party ACME, created by staff through the API. */
export async function acmeDossier(baseURL: string, over: Record<string, unknown> = {}) {
  const staff = await apiAs(baseURL, DEMO.staff);
  const parties = await staff.call<{ items: { id: string; code: string }[] }>('GET', '/parties?q=ACME');
  const acme = parties.items.find((p) => p.code === 'ACME');
  return staff.call<{ id: string; number: string; version: number }>('POST', '/dossiers', {
    type: 'import',
    mode: 'sea',
    customerId: acme?.id,
    originLocode: 'CNSHA',
    destinationLocode: 'NLRTM',
    ...over,
  });
}

/** The two screen sizes the screens are checked at. */
export const SCREEN_SIZES = [
  { width: 1440, height: 900 },
  { width: 1280, height: 800 },
] as const;

/**
 * Screenshots of what the page shows now at both desktop sizes, into test-results/screens/; with
 * `show`, that element is scrolled into view again at each size (a resize keeps the scroll offset);
 * `check` asserts the layout at each size before its shot (e.g. nothing cut).
 */
export async function screens(page: Page, name: string, show?: Locator, check?: () => Promise<void>) {
  await mkdir('test-results/screens', { recursive: true });
  for (const size of SCREEN_SIZES) {
    await page.setViewportSize(size);
    // Let the layout settle at the new size (the table measures its columns after a resize).
    await page.waitForTimeout(300);
    // Centred: the app's fixed footer would cover an element at the very bottom.
    if (show) await show.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await check?.();
    await page.screenshot({ path: `test-results/screens/${name}-${size.width}x${size.height}.png` });
  }
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A calendar day ('2026-11-24') as the app shows it ('24 Nov 2026', ADR 0021). */
export function shownDay(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return `${d} ${MONTHS[m - 1]} ${y}`;
}

/** Types a day ('2031-04-08') and a time ('08:00') into one of the app's date-time fields. */
export async function fillDateTime(field: Locator, day: string, time: string) {
  const [hours = '', minutes = ''] = time.split(':');
  await field.locator('input[data-dates-input]').fill(shownDay(day));
  await field.getByRole('spinbutton').nth(0).fill(hours);
  await field.getByRole('spinbutton').nth(1).fill(minutes);
}

/** Closes the toasts, which would cover a screen's header and actions in the screenshots. */
export async function closeToasts(page: Page) {
  for (const close of await page.locator('.mantine-Notification-closeButton').all()) await close.click();
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0);
}
