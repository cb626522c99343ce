import { apiAs, DEMO, expect, screens, signIn, test } from './support.ts';

/*
 * Issue 10, item 2 (and issue 14, "Demo company"): the e2e server starts on a fresh data folder, so it
 * seeded the demo company. Every list that exists shows its records on a first start, for each demo
 * sign-in (staff, the admin, Acme's customer with the warehouse, Globex's without); a customer sees
 * their own only. Screenshots of each list at both sizes go to test-results/screens/.
 */

// Screenshots of every list at two sizes take their time on a shared machine.
test.describe.configure({ timeout: 120_000 });
// A first load of a list on a loaded machine can take longer than the default 10 s.
const slow = expect.configure({ timeout: 30_000 });

/** Monday of this week and the Sunday of next week (UTC calendar days), the planning range. */
function twoWeeks(): { from: string; to: string } {
  const now = new Date();
  const monday = Date.UTC(
    now.getUTCFullYear(),
    now.getUTCMonth(),
    now.getUTCDate() - ((now.getUTCDay() + 6) % 7),
  );
  const day = (n: number) => new Date(monday + n * 86_400_000).toISOString().slice(0, 10);
  return { from: day(0), to: day(13) };
}

test('a first start shows the demo company in every staff list', async ({ page }) => {
  await signIn(page, DEMO.staff);

  await page.goto('/dossiers');
  await slow(page.locator('[data-testid^="row-D-"]').first()).toBeVisible();
  // The table renders the rows in view; the paging line counts them all.
  const paging = (await page.getByTestId('paging-total').textContent()) ?? '';
  const total = Number(paging.match(/of ([\d,]+)/)?.[1]?.replace(/,/g, ''));
  expect(total).toBeGreaterThanOrEqual(40);
  await expect(page.getByTestId('list-page')).toContainText('Acme Trading B.V.');
  await expect(page.getByTestId('list-page')).toContainText('Globex GmbH');
  await screens(page, 'demo-dossiers');

  await page.goto('/transports');
  await slow(page.locator('[data-testid^="row-transport-"]').first()).toBeVisible();
  await screens(page, 'demo-transports');

  await page.goto('/containers');
  await slow(page.locator('[data-testid^="row-container-"]').first()).toBeVisible();
  await screens(page, 'demo-containers');

  await page.goto('/documents');
  await slow(page.locator('[data-testid^="row-document-"]').first()).toBeVisible();
  await screens(page, 'demo-documents');

  await page.goto('/parties');
  await expect(page.getByTestId('row-SZBRIGHT')).toBeVisible();
  await expect(page.getByTestId('row-VANDIJK')).toBeVisible();
  await screens(page, 'demo-parties');
});

test('the demo planning board has legs this week and next, unassigned ones and one vehicle overlap', async ({
  page,
}) => {
  await signIn(page, DEMO.staff);
  const { from, to } = twoWeeks();
  await page.goto(`/planning/list?from=${from}&to=${to}`);
  await expect(page.getByTestId('planning-group-unassigned')).toBeVisible();
  await expect(
    page.getByTestId('planning-group-unassigned').getByTestId('flag-missing_carrier').first(),
  ).toBeVisible();
  // The one truck booked on two legs at once.
  await expect(page.getByTestId('flag-vehicle_overlap')).toHaveCount(2);
  await screens(page, 'demo-planning');
});

test('the demo sign-ins are in the users list', async ({ page }) => {
  await signIn(page, DEMO.admin);
  await page.goto('/admin/users');
  await page.getByTestId('enable-admin-mode').click();
  await expect(page.getByTestId('row-customer@globex.example')).toBeVisible();
  await screens(page, 'demo-users');
});

test('a customer sees their own demo dossiers only', async ({ page, baseURL }) => {
  const staff = await apiAs(baseURL as string, DEMO.staff);
  const list = await staff.call<{ items: { number: string; customer: { code: string } }[] }>(
    'GET',
    '/dossiers?pageSize=100',
  );
  const acme = new Set(list.items.filter((d) => d.customer.code === 'ACME').map((d) => d.number));
  const globex = list.items.filter((d) => d.customer.code === 'GLOBEX').map((d) => d.number);
  expect(acme.size).toBeGreaterThan(10);
  expect(globex.length).toBeGreaterThan(10);

  await signIn(page, DEMO.customer);
  await page.goto('/dossiers');
  const rows = page.locator('[data-testid^="row-D-"]');
  await slow(rows.first()).toBeVisible();
  const shown = await rows.evaluateAll((els) =>
    els.map((e) => e.getAttribute('data-testid')?.slice(4) ?? ''),
  );
  expect(shown.length).toBeGreaterThan(0);
  // Records other specs create for ACME may show too; GLOBEX's never do.
  expect(shown.filter((n) => globex.includes(n))).toEqual([]);
  expect(shown.filter((n) => acme.has(n)).length).toBeGreaterThan(0);
  await screens(page, 'demo-customer-dossiers');

  await page.goto('/documents');
  await slow(page.locator('[data-testid^="row-document-"]').first()).toBeVisible();
  await screens(page, 'demo-customer-documents');
});

const GLOBEX = { email: 'customer@globex.example', password: 'customer-demo-2026' } as const;

/** Every list screen of the navbar and where it lives (planning and the admin's lists are checked above). */
const LIST_SCREENS = {
  'nav-dossiers': '/dossiers',
  'nav-transports': '/transports',
  'nav-documents': '/documents',
  'nav-containers': '/containers',
  'nav-sales-offers': '/sales-offers',
  'nav-sales-invoices': '/sales-invoices',
  'nav-declarations': '/declarations',
  'nav-parties': '/parties',
  'nav-stock': '/stock',
  'nav-shipments': '/shipments',
} as const;
type ListNav = keyof typeof LIST_SCREENS;
const ALL = Object.keys(LIST_SCREENS) as ListNav[];
const CUSTOMER_LISTS = ALL.filter((n) => n !== 'nav-parties');
const WAREHOUSE: ListNav[] = ['nav-stock', 'nav-shipments'];

for (const [who, cred, expected] of [
  ['staff', DEMO.staff, ALL.filter((n) => !WAREHOUSE.includes(n))],
  ['admin', DEMO.admin, ALL],
  ['acme', DEMO.customer, CUSTOMER_LISTS],
  ['globex', GLOBEX, CUSTOMER_LISTS.filter((n) => !WAREHOUSE.includes(n))],
] as const) {
  test(`${who}: every list in the navbar shows demo records on a first start`, async ({ page }) => {
    await signIn(page, cred);
    // The navbar offers exactly the lists this sign-in may open (once the signed-in user has loaded).
    const offered = async () => {
      const out: ListNav[] = [];
      for (const nav of ALL) if ((await page.getByTestId(nav).count()) > 0) out.push(nav);
      return out;
    };
    await expect.poll(offered, { timeout: 30_000 }).toEqual([...expected]);
    for (const nav of expected) {
      await page.goto(LIST_SCREENS[nav]);
      await slow(page.locator('[data-testid^="row-"]').first(), `${nav} has rows`).toBeVisible();
      await expect(page.getByTestId('list-empty')).toHaveCount(0);
    }
    // The customers' screens at both sizes (staff's are taken above).
    if (who === 'globex') {
      await page.goto('/sales-invoices');
      await slow(page.locator('[data-testid^="row-"]').first()).toBeVisible();
      await screens(page, 'demo-globex-invoices');
      await page.goto('/declarations');
      await slow(page.locator('[data-testid^="row-"]').first()).toBeVisible();
      await screens(page, 'demo-globex-declarations');
    }
    if (who === 'acme') {
      await page.goto('/stock');
      await slow(page.locator('[data-testid^="row-"]').first()).toBeVisible();
      await screens(page, 'demo-acme-stock');
    }
  });
}

test('staff: the terminal feed left two events under "Unlinked events", and the admin sees its key', async ({
  page,
}) => {
  await signIn(page, DEMO.staff);
  await page.goto('/containers?tab=unlinked');
  // Other specs post unlinked events of their own: the demo's box is TGHU 880011.
  await page.getByTestId('list-search').fill('TGHU880011');
  await slow(page.locator('[data-testid^="row-unlinked-"]')).toHaveCount(2);
  await screens(page, 'demo-unlinked-events');
  await page.goto('/logout');
  await signIn(page, DEMO.admin);
  await page.goto('/admin/integration-keys');
  await page.getByTestId('enable-admin-mode').click();
  await expect(page.getByTestId('row-key-ECT Delta Terminal event feed')).toBeVisible();
});
