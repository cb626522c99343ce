import type { Page } from '@playwright/test';
import { apiAs, DEMO, expect, screens, signIn, test } from './support.ts';

/** A customer of another party (GLOBEX), seeded with the demo users. */
const GLOBEX_CUSTOMER = { email: 'customer@globex.example', password: 'customer-demo-2026' };

/** A container of ACME's, as ACME's customer lists them: the record the searches look for. */
async function acmeContainer(baseURL: string): Promise<string> {
  const acme = await apiAs(baseURL, DEMO.customer);
  const list = await acme.call<{ items: { containerNumber: string }[] }>('GET', '/containers?pageSize=1');
  const number = list.items[0]?.containerNumber;
  expect(number, 'the demo company gives ACME containers').toBeTruthy();
  return number as string;
}

const palette = (page: Page) => page.getByTestId('search-palette-input');
/** Ctrl+K once the shell (which owns the shortcut) is on screen. */
async function openPalette(page: Page) {
  await expect(page.getByTestId('header-search')).toBeVisible();
  await page.keyboard.press('Control+K');
  await expect(palette(page)).toBeVisible();
}

/** The container's entry in the palette: its number, then its line of context. */
const containerResult = (page: Page, container: string) =>
  page.getByTestId('search-group-container').getByRole('button', { name: new RegExp(`^${container}`) });

test('Ctrl+K opens the palette on any screen; a container number typed, Enter opens its record', async ({
  page,
  baseURL,
}) => {
  const container = await acmeContainer(baseURL as string);
  await signIn(page, DEMO.staff);

  // From several screens, and with the focus inside a field of the screen.
  for (const path of ['/dossiers', '/transports', '/sales-invoices', '/declarations']) {
    await page.goto(path);
    await expect(page.getByTestId('screen-frame')).toBeVisible();
    const field = page.locator('#main-content input:not([type=hidden])').first();
    if ((await field.count()) > 0) await field.focus();
    await page.keyboard.press('Control+K');
    await expect(palette(page), path).toBeVisible();
    await expect(palette(page)).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(palette(page)).toBeHidden();
  }
  await page.getByTestId('header-search').focus();
  await page.keyboard.press('Control+K');
  await expect(palette(page)).toBeVisible();
  await expect(page.getByTestId('search-palette-hint')).toBeVisible();
  await screens(page, 'search-palette-empty');

  // Typed the way people write it: lower case, with a space.
  await palette(page).pressSequentially(`${container.slice(0, 4).toLowerCase()} ${container.slice(4)}`);
  const result = containerResult(page, container);
  await expect(result).toBeVisible();
  // Its dossier (which names the container) may rank alongside: the arrows move to the container.
  await expect(page.locator('[data-selected]')).toHaveCount(1);
  for (let i = 0; i < 10 && (await result.getAttribute('data-selected')) !== 'true'; i++) {
    await page.keyboard.press('ArrowDown');
  }
  await expect(result).toHaveAttribute('data-selected', 'true');
  await screens(page, 'search-palette');

  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/containers\\?open=${container}$`));
  await expect(page.getByTestId('container-timeline')).toBeVisible();
  await expect(page.getByTestId('container-timeline')).toHaveAttribute('data-container', container);

  // The search is remembered for this user.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+K');
  await expect(page.getByTestId('search-recent-item').first()).toHaveText(
    `${container.slice(0, 4).toLowerCase()} ${container.slice(4)}`,
  );
});

test('a Globex customer searching an ACME container number finds nothing', async ({ page, baseURL }) => {
  const container = await acmeContainer(baseURL as string);

  // ACME's own customer finds it: the number is searchable, the emptiness below is the scoping.
  await signIn(page, DEMO.customer);
  await openPalette(page);
  await palette(page).fill(container);
  await expect(containerResult(page, container)).toBeVisible();
  await page.goto('/logout');

  await signIn(page, GLOBEX_CUSTOMER);
  await openPalette(page);
  await palette(page).fill(container);
  await expect(page.getByTestId('search-palette-empty')).toContainText(`Nothing found for “${container}”`);
  await expect(page.locator('[data-testid^="search-result-"]')).toHaveCount(0);

  await page.goto(`/search?q=${container}`);
  await expect(page.getByTestId('search-empty')).toBeVisible();
  await expect(page.locator('[data-testid^="search-group-"]')).toHaveCount(0);
});

test('/search?q= lists the groups in full, "More" adds the next results of one kind', async ({
  page,
  baseURL,
}) => {
  const staff = await apiAs(baseURL as string, DEMO.staff);
  const dossiers = await staff.call<{ items: { number: string }[]; total: number }>(
    'GET',
    '/dossiers?pageSize=1',
  );
  // 'D-2026': the start of every dossier number of this year, far more than a page.
  const prefix = (dossiers.items[0]?.number ?? '').slice(0, 6);
  expect(prefix).toMatch(/^D-\d{4}$/);

  await signIn(page, DEMO.staff);
  await page.getByTestId('header-search').fill(prefix);
  await page.getByTestId('header-search').press('Enter');
  await expect(page).toHaveURL(new RegExp(`/search\\?q=${prefix}$`));

  const group = page.getByTestId('search-group-dossier');
  await expect(group.getByRole('link')).toHaveCount(10);
  await screens(page, 'search-page');
  await group.getByTestId('search-more-dossier').click();
  await expect(group.getByRole('link')).toHaveCount(Math.min(35, dossiers.total));
  await screens(page, 'search-page-more', group.getByRole('link').last());
  for (const link of await group.getByRole('link').all())
    await expect(link).toHaveText(new RegExp(`^${prefix}`));

  // A result opens its record.
  await group.getByRole('link').first().click();
  // The result links the id; the dossier takes its number's address (ADR 0071).
  await expect(page).toHaveURL(/\/dossiers\/D-\d{4}-\d{6}$/);
});
