import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { appOfWorker, type E2eApp } from './apps.ts';

/** The app under test: this worker's own, started by global-setup.ts (ADR 0063). */
export const test = base.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take their dependencies by destructuring
  baseURL: async ({}, use, testInfo) => {
    await use(appOfWorker(testInfo.parallelIndex).baseUrl);
  },
});
export { expect };

/** The app of the running test's worker: its URL, mail folder and data folder. */
export function app(): E2eApp {
  return appOfWorker(test.info().parallelIndex);
}

export const DEMO = {
  admin: { email: 'admin@fvg.local', password: 'admin-demo-2026' },
  staff: { email: 'staff@fvg.local', password: 'staff-demo-2026' },
  customer: { email: 'customer@acme.example', password: 'customer-demo-2026' },
} as const;

/**
 * Signs in through the form, as a person does: the one way that proves the form works (foundation.spec.ts
 * "signing in lands on /dossiers…"; the wrong-credentials and network specs type into it themselves).
 */
export async function signInThroughForm(page: Page, who: { email: string; password: string }) {
  await page.goto('/login');
  await page.getByTestId('login-email').fill(who.email);
  await page.getByTestId('login-password').fill(who.password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/dossiers$/);
}

/**
 * Signs `page` in as `who` and lands on /dossiers, as the form does, without typing into it: a session
 * of its own (the token the form's endpoint answers, as every sign-in gets), put where the app keeps it
 * (local storage, `bearerToken`) before the app loads. Each call is a new session, as a person signing in
 * on another browser is: the specs that sign out, end sessions or change a password end only their own.
 */
export async function signIn(page: Page, who: { email: string; password: string }) {
  const { token } = await apiAs(app().baseUrl, who);
  // A same-origin document that is not the app (no second boot): local storage is the origin's.
  await page.goto('/favicon.svg');
  await page.evaluate((t) => localStorage.setItem('bearerToken', t), token);
  await page.goto('/dossiers');
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
  const dir = app().mailDir;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const names = (await readdir(dir)).filter((name) => name.endsWith('.json'));
    for (const name of names.sort().reverse()) {
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
  if (!login.ok) throw new Error(`signing in ${who.email}: ${login.status} ${await login.text()}`);
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
 * Waits until the page has drawn what it shows now: three animation frames, enough for a resize's
 * ResizeObserver callbacks, the React render they cause and its paint (the table and the line editor
 * measure themselves after a resize).
 */
export async function painted(page: Page) {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let frames = 3;
        const next = () => (--frames === 0 ? resolve() : requestAnimationFrame(next));
        requestAnimationFrame(next);
      }),
  );
}

/**
 * Screenshots of what the page shows now at both desktop sizes, into test-results/screens/; with
 * `show`, that element is scrolled into view again at each size (a resize keeps the scroll offset);
 * `check` asserts the layout at each size before its shot (e.g. nothing cut), retried until the layout
 * has settled at the new size.
 */
export async function screens(page: Page, name: string, show?: Locator, check?: () => Promise<void>) {
  await mkdir('test-results/screens', { recursive: true });
  for (const size of SCREEN_SIZES) {
    await page.setViewportSize(size);
    await painted(page);
    // The shell's transitions (250 ms) run after a resize: a shot mid-way showed the navbar over the footer.
    await page.evaluate(() =>
      Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))),
    );
    // Centred: the app's fixed footer would cover an element at the very bottom.
    if (show) await show.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    if (check) await expect(check).toPass({ timeout: 10_000 });
    await painted(page);
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

/**
 * Asserts that `tab` (a tab the app opened) shows a PDF: the full Chromium opens it in its viewer at a
 * `blob:` address (the document's type is the PDF's); the headless shell (ADR 0064) has no viewer and
 * saves the same blob as a download, whose bytes must be a PDF.
 */
export async function expectPdfTab(tab: Page) {
  const download = tab.waitForEvent('download', { timeout: 15_000 });
  const shown = tab.waitForURL(/^blob:/, { timeout: 15_000, waitUntil: 'commit' });
  // The first that happens wins; the other fails (an aborted navigation, a timeout): not an error.
  download.catch(() => {});
  shown.catch(() => {});
  const saved = await Promise.any([download, shown.then(() => undefined)]);
  if (saved) expect((await readFile(await saved.path())).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  else expect(await tab.evaluate(() => document.contentType)).toBe('application/pdf');
}
