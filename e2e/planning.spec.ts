import type { Page } from '@playwright/test';
import { iso6346CheckDigit } from '../packages/contracts/src/validators/iso6346.ts';
import {
  acmeDossier,
  apiAs,
  DEMO,
  expect,
  fillDateTime,
  SCREEN_SIZES,
  screens,
  signIn,
  test,
} from './support.ts';

test('staff plan a transport on the planning list: assign a carrier inline, move the pickup, and see it stay after a reload', async ({
  page,
  baseURL,
}) => {
  const origin = baseURL as string;
  const staffApi = await apiAs(origin, DEMO.staff);
  const dossier = await acmeDossier(origin, { mode: 'road', type: 'export' });
  // A week of its own, far ahead, so nothing else lands in it and no pickup has passed.
  const leg = await staffApi.call<{ id: string; sequence: number }>('POST', '/transports', {
    dossierId: dossier.number,
    mode: 'road',
    carrierId: null,
    truckPlate: 'E2E-PL-1',
    pickupLocode: 'NLRTM',
    pickupFrom: '2031-03-04T08:00:00Z',
    pickupTo: '2031-03-04T10:00:00Z',
    deliveryLocode: 'DEHAM',
    deliveryFrom: '2031-03-04T16:00:00Z',
    deliveryTo: '2031-03-04T18:00:00Z',
  });
  const label = `${dossier.number}-${leg.sequence}`;

  await signIn(page, DEMO.staff);
  await page.goto('/planning/list?from=2031-03-03&to=2031-03-09');
  const unassigned = page.getByTestId('planning-group-unassigned');
  const row = page.getByTestId(`planning-row-${leg.id}`);
  await expect(unassigned.getByTestId(`planning-row-${leg.id}`)).toBeVisible();
  await expect(row.getByTestId('flag-missing_carrier')).toBeVisible();
  await expect(page.getByTestId('planning-count')).toHaveText('1 leg');

  // Assign the carrier inline: the leg moves to the carrier's group and its flag goes.
  const carrier = page.getByTestId(`assign-carrier-${leg.id}`);
  await carrier.click();
  await carrier.fill('Nord');
  await page.getByRole('option', { name: /Nord Cargo Transport N\.V\. \(NORDCAR\)/ }).click();
  const nordcar = page.getByTestId('planning-group-NORDCAR');
  await expect(nordcar.getByTestId(`planning-row-${leg.id}`)).toBeVisible();
  await expect(unassigned).toHaveCount(0);
  await expect(row.getByTestId('flag-missing_carrier')).toHaveCount(0);

  // Move the pickup (within its window, in the browser's time zone): it saves on Enter.
  const pickup = page.getByTestId(`pickup-${leg.id}`);
  await expect(pickup.locator('input[data-dates-input]')).toHaveValue('4 Mar 2031');
  await pickup.getByRole('spinbutton').nth(0).fill('09');
  await pickup.getByRole('spinbutton').nth(1).fill('15');
  await pickup.getByRole('spinbutton').nth(1).press('Enter');
  const expected = await page.evaluate(() => new Date('2031-03-04T09:15').toISOString());
  await expect
    .poll(
      async () => (await staffApi.call<{ pickupFrom: string }>('GET', `/transports/${leg.id}`)).pickupFrom,
    )
    .toBe(expected);
  await expect(page.getByTestId('planning-error')).toHaveCount(0);

  // Both changes are the server's: a reload shows them, and the leg's history names them.
  await page.reload();
  await expect(
    page.getByTestId('planning-group-NORDCAR').getByTestId(`planning-row-${leg.id}`),
  ).toBeVisible();
  await expect(page.getByTestId(`pickup-${leg.id}`).getByRole('spinbutton').nth(0)).toHaveValue('09');
  await expect(page.getByTestId(`pickup-${leg.id}`).getByRole('spinbutton').nth(1)).toHaveValue('15');
  const history = await staffApi.call<{ changes: { field: string }[] }[]>(
    'GET',
    `/transports/${leg.id}/history`,
  );
  const fields = history.flatMap((h) => h.changes.map((c) => c.field));
  expect(fields).toEqual(expect.arrayContaining(['carrierId', 'pickupFrom']));
  await expect(page.getByRole('link', { name: label })).toBeVisible();
});

/** What is cut off in the planning table: the table wider than its box, a flag, header or leg cut short. */
async function clippedInPlanning(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const table = document.querySelector('[data-testid="planning-table"]') as HTMLElement;
    const cut: string[] = [];
    const box = table.parentElement as HTMLElement;
    if (box.scrollWidth > box.clientWidth + 1) cut.push(`table ${box.scrollWidth} > ${box.clientWidth}`);
    const parts = table.querySelectorAll<HTMLElement>('th, td a, .mantine-Badge-label, td p');
    for (const el of parts) if (el.scrollWidth > el.clientWidth + 1) cut.push(el.textContent ?? '');
    return cut;
  });
}

test('staff add a leg from the dossier’s Transports tab (the dossier fixed, its containers ticked); it shows on the tab and on the planning board, as a row and as a bar of the day’s timeline', async ({
  page,
  baseURL,
}) => {
  const origin = baseURL as string;
  const staffApi = await apiAs(origin, DEMO.staff);
  const stamp = String(Date.now() % 1_000_000).padStart(6, '0');
  const containers = ['PLNU', 'PLMU'].map(
    (owner) => `${owner}${stamp}${iso6346CheckDigit(`${owner}${stamp}`)}`,
  );
  const dossier = await acmeDossier(origin, {
    mode: 'road',
    type: 'export',
    customerReference: `PLAN-${stamp}`,
    containers: containers.map((number) => ({ number })),
  });
  const plate = `PL-${stamp.slice(0, 3)}-${stamp.slice(3)}`;

  await signIn(page, DEMO.staff);
  await page.goto(`/dossiers/${dossier.number}?tab=transports`);
  await expect(page.getByTestId('dossier-transports-empty')).toBeVisible();
  await page.getByTestId('add-leg').click();
  const form = page.getByTestId('transport-form');
  await expect(form.getByTestId('field-dossierId')).toHaveValue(dossier.number);
  await expect(form.getByTestId('field-dossierId')).not.toBeEditable();
  // The dossier's containers are offered: tick the second.
  await expect(form.getByRole('checkbox')).toHaveCount(2);
  await form.getByRole('checkbox', { name: containers[1] }).check();
  await form.getByTestId('field-truckPlate').fill(plate);
  await form.getByTestId('field-pickupLocode').fill('NLRTM');
  await fillDateTime(form.getByTestId('field-pickupFrom'), '2031-04-08', '08:00');
  await form.getByTestId('field-deliveryLocode').fill('DEHAM');
  await fillDateTime(form.getByTestId('field-deliveryTo'), '2031-04-08', '14:00');
  await form.getByTestId('form-submit').click();
  await expect(form).toHaveCount(0);
  const row = page.getByTestId(`row-transport-${dossier.number}-1`);
  await expect(row).toBeVisible();
  const [leg] = (
    await staffApi.call<{ items: { id: string; containers: string[]; carrier: unknown }[] }>(
      'GET',
      `/transports?dossierId=${dossier.id}`,
    )
  ).items;
  expect(leg?.containers).toEqual([containers[1]]);

  // The same truck on a second leg at the same time, with a carrier: both are flagged.
  const parties = await staffApi.call<{ items: { id: string; code: string }[] }>('GET', '/parties?q=NORDCAR');
  const nordcar = parties.items.find((p) => p.code === 'NORDCAR');
  const second = await staffApi.call<{ id: string; sequence: number }>('POST', '/transports', {
    dossierId: dossier.id,
    mode: 'road',
    carrierId: nordcar?.id,
    truckPlate: plate,
    pickupLocode: 'DEHAM',
    pickupFrom: '2031-04-08T10:00:00Z',
    deliveryLocode: 'BEANR',
    deliveryTo: '2031-04-08T17:00:00Z',
    containers: [containers[0]],
  });
  // Live: the tab shows the leg staff added elsewhere.
  await expect(page.getByTestId(`row-transport-${dossier.number}-2`)).toBeVisible();

  // The planning table: the UI's leg is unassigned, both legs carry the overlap in words.
  await page.goto('/planning/list?from=2031-04-07&to=2031-04-13');
  const mine = page.getByTestId(`planning-row-${leg?.id}`);
  await expect(
    page.getByTestId('planning-group-unassigned').getByTestId(`planning-row-${leg?.id}`),
  ).toBeVisible();
  await expect(mine.getByTestId('flag-missing_carrier')).toHaveText('No carrier');
  const overlap = mine.getByTestId('flag-vehicle_overlap');
  await expect(overlap).toHaveText('Overlap');
  await overlap.hover();
  await expect(page.getByRole('tooltip')).toHaveText(
    new RegExp(
      `^Vehicle overlap — ${plate} is also on leg ${dossier.number}-${second.sequence} until \\d\\d:\\d\\d$`,
    ),
  );
  await page.mouse.move(0, 0);
  await screens(page, 'planning-table');
  for (const size of SCREEN_SIZES) {
    await page.setViewportSize(size);
    await expect.poll(() => clippedInPlanning(page), `${size.width}x${size.height}`).toEqual([]);
  }

  // The timeline of the day: one lane for the truck under each carrier, the bars open their leg.
  await page.getByTestId('planning-view').locator('label', { hasText: 'Timeline' }).click();
  await expect(page).toHaveURL(/view=timeline/);
  await page.getByTestId('timeline-next').click();
  await expect(page).toHaveURL(/day=2031-04-08/);
  const bar = page.getByTestId(`timeline-bar-${leg?.id}`);
  await expect(bar).toBeVisible();
  await expect(bar).toHaveAttribute('data-overlap', 'true');
  await expect(page.getByTestId(`timeline-bar-${second.id}`)).toHaveAttribute('data-overlap', 'true');
  await screens(page, 'planning-timeline');
  await bar.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/transports\\?open=${leg?.id}`));
  await expect(page.getByTestId('transport-detail')).toHaveAttribute('data-transport', leg?.id ?? '');
});

test('customers have no planning: no menu entry, no access on the route', async ({ page }) => {
  await signIn(page, DEMO.customer);
  await expect(page.getByTestId('nav-transports')).toBeVisible();
  await expect(page.getByTestId('nav-planning')).toHaveCount(0);
  await page.goto('/planning/list');
  await expect(page.getByTestId('no-access')).toBeVisible();
  await expect(page.getByTestId('planning-board')).toHaveCount(0);
});
