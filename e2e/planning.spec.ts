import { acmeDossier, apiAs, DEMO, expect, signIn, test } from './support.ts';

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
