import type { Locator, Page } from '@playwright/test';
import { apiAs, DEMO, expect, screens, signIn, test } from './support.ts';

/*
 * The dashboard end to end, on the demo company: staff and the ACME customer each see the cards
 * `GET /api/dashboard` names for them (staff the revenue, the customer not; the customer, who has
 * warehouse access, the shipments), every card settles into figures or its empty state, and each
 * card's counted figures open their list showing that many records. Screenshots of the dashboard at
 * both sizes go to test-results/screens/.
 */

type Who = 'staff' | 'customer';

/** '1,234' → 1234 (the default number format). */
const countOf = (text: string) => Number(text.replace(/[^\d]/g, ''));

/** The list's total from its paging line ('1–50 of 1,234'). */
async function listTotal(page: Page): Promise<number> {
  const paging = page.getByTestId('paging-total');
  await expect(paging).toBeVisible();
  const text = (await paging.textContent()) ?? '';
  const match = /of\s+([\d,.\s]+)$/.exec(text.trim());
  expect(match, `paging line "${text}"`).not.toBeNull();
  return countOf(match?.[1] ?? '');
}

/** Every card settled: figures or its empty state, no skeleton, no error. */
async function settled(card: Locator) {
  await expect(card.getByTestId('card-loading')).toHaveCount(0);
  await expect(card.getByTestId('error-state')).toHaveCount(0);
  await expect(card.locator('[data-testid^="figure-"], [data-testid="card-empty"]').first()).toBeVisible();
}

for (const who of ['staff', 'customer'] as const satisfies readonly Who[]) {
  test(`${who}: the dashboard shows its cards, and a figure opens the list with that many records`, async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const api = await apiAs(baseURL as string, DEMO[who]);
    const { cards } = await api.call<{ cards: string[] }>('GET', '/dashboard');
    if (who === 'staff') {
      expect(cards).toContain('revenue');
      expect(cards).not.toContain('stock'); // no cw_access
    } else {
      expect(cards).not.toContain('revenue');
      expect(cards).toContain('shipments'); // ACME has cw_access
    }

    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, DEMO[who]);
    await page.getByTestId('nav-dashboard').click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.locator('[data-testid^="dashboard-card-"]')).toHaveCount(cards.length);
    for (const card of cards) await settled(page.getByTestId(`dashboard-card-${card}`));
    // Words, never codes or API names, in what the cards show.
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered words, apart as the user reads them
    const text = (await page.getByTestId('dashboard-cards').innerText()).replace(/\s+/g, ' ');
    expect(text).not.toMatch(
      /\b[a-z]+_[a-z_]+\b|\bonHand\b|\boverdueAmount\b|\d{4}-\d{2}-\d{2}|undefined|NaN/,
    );
    await screens(page, `dashboard-${who}`);
    await screens(page, `dashboard-${who}-end`, page.getByTestId(`dashboard-card-${cards.at(-1)}`));

    // Each card's first counted figure with a list opens that list, filtered to the same count.
    let opened = 0;
    for (const card of cards) {
      const figures = page
        .getByTestId(`dashboard-card-${card}`)
        .locator('[data-testid^="figure-"][data-href]');
      const count = await figures.count();
      for (let i = 0; i < count; i++) {
        const figure = figures.nth(i);
        const value = ((await figure.getByTestId('figure-value').textContent()) ?? '').trim();
        if (!/^[\d,]+$/.test(value) || countOf(value) === 0) continue; // money, or nothing to list
        const href = (await figure.getAttribute('data-href')) ?? '';
        await figure.getByRole('link').click();
        await expect(page).toHaveURL((url) => url.pathname === href.split('?')[0]);
        expect(await listTotal(page), `${card}: ${href}`).toBe(countOf(value));
        opened++;
        await page.goBack();
        await expect(page).toHaveURL(/\/dashboard$/);
        await settled(page.getByTestId(`dashboard-card-${card}`));
        break;
      }
    }
    expect(opened).toBeGreaterThan(0);
  });
}
