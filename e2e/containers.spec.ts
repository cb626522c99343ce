import type { Page } from '@playwright/test';
import { iso6346CheckDigit } from '../packages/contracts/src/validators/iso6346.ts';
import { acmeDossier, DEMO, expect, signIn, test } from './support.ts';

/** A customer of another party (GLOBEX), seeded with the demo users. */
const GLOBEX_CUSTOMER = { email: 'customer@globex.example', password: 'customer-demo-2026' };

/** A valid ISO 6346 number of this run, so reruns on a kept database never collide. */
function containerNumber(owner: string, offset: number): string {
  const body = `${owner}${String((Date.now() + offset) % 1_000_000).padStart(6, '0')}`;
  return `${body}${iso6346CheckDigit(body)}`;
}

/** A DCSA T&T 2.2 equipment event of the container, `hoursAgo` in the past. */
function equipmentEvent(
  container: string,
  code: string,
  hoursAgo: number,
  over: Record<string, unknown> = {},
) {
  const at = new Date(Date.now() - hoursAgo * 3_600_000).toISOString();
  return {
    eventID: crypto.randomUUID(),
    eventType: 'EQUIPMENT',
    eventClassifierCode: 'ACT',
    eventDateTime: at,
    eventCreatedDateTime: at,
    equipmentEventTypeCode: code,
    equipmentReference: container,
    ISOEquipmentCode: '22G1',
    emptyIndicatorCode: 'LADEN',
    eventLocation: { UNLocationCode: 'NLRTM' },
    ...over,
  };
}

async function postEvents(baseURL: string, key: string, body: unknown) {
  const res = await fetch(`${baseURL}/api/container-events`, {
    method: 'POST',
    headers: { authorization: `ApiKey ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  const answer = (await res.json()) as { created: number; invalid: number };
  expect(answer.invalid).toBe(0);
  return answer;
}

/** Creates an integration key on the admin screen and reads it from the one place it is shown. */
async function createKeyInUi(page: Page, name: string): Promise<string> {
  await signIn(page, DEMO.admin);
  await page.getByTestId('nav-admin-integration-keys').click();
  await page.getByTestId('enable-admin-mode').click();
  await page.getByTestId('new-integration-key').click();
  await page.getByTestId('field-name').fill(name);
  await page.getByTestId('form-submit').click();
  await expect(page.getByTestId('created-key')).toContainText('you will not see it again');
  const key = (await page.getByTestId('created-key-value').textContent()) ?? '';
  expect(key).toMatch(/^fvg_[\w-]{43}$/);
  await page.getByTestId('created-key-done').click();
  await expect(page.getByTestId('created-key')).toHaveCount(0);
  await expect(page.getByTestId(`row-key-${name}`)).toContainText('Active');
  await expect(page.getByText(key)).toHaveCount(0);
  return key;
}

test('an event posted with an admin’s integration key appears live on the open timeline; other customers never see the container', async ({
  browser,
  baseURL,
}) => {
  // Four sign-ins in four browsers: on a busy machine (and first in the suite, on a cold server) this
  // takes close to the default minute, without anything being wrong.
  test.slow();
  const base = baseURL as string;
  const container = containerNumber('ACMU', 0);
  const dossier = await acmeDossier(base, {
    customerReference: `EVT-${Date.now()}`,
    containers: [{ number: container }],
  });

  const adminContext = await browser.newContext();
  const key = await createKeyInUi(await adminContext.newPage(), `E2E terminal ${Date.now()}`);
  await adminContext.close();
  // The container is linked to the ACME dossier by its number.
  await postEvents(base, key, equipmentEvent(container, 'GTIN', 5));

  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await signIn(staff, DEMO.staff);
  await staff.getByTestId('nav-containers').click();
  await staff.getByTestId('list-search').fill(container);
  const row = staff.getByTestId(`row-container-${container}`);
  await expect(row).toContainText('Gated in');
  await expect(row).toContainText(dossier.number);
  await row.click();
  await expect(staff).toHaveURL(new RegExp(`open=${container}`));
  const timeline = staff.getByTestId('container-timeline');
  await expect(timeline.getByTestId('timeline-event')).toHaveCount(1);

  // Posted while the dialog is open: the hub's announcement brings it in, no reload.
  await staff.evaluate(() => {
    (window as unknown as { marker: boolean }).marker = true;
  });
  await postEvents(
    base,
    key,
    equipmentEvent(container, 'LOAD', 2, {
      eventLocation: undefined,
      transportCall: {
        modeOfTransport: 'VESSEL',
        UNLocationCode: 'NLRTM',
        facilityTypeCode: 'POTE',
        carrierVoyageNumber: '2107W',
        vessel: { vesselName: 'MAERSK EMDEN', vesselIMONumber: '9321483' },
      },
    }),
  );
  await expect(timeline.getByTestId('timeline-event')).toHaveCount(2);
  const loaded = timeline.getByTestId('timeline-event').nth(1);
  await expect(loaded.getByTestId('timeline-label')).toHaveText('Loaded on board');
  await expect(loaded).toContainText('MAERSK EMDEN (IMO 9321483) · voyage 2107W');

  // An ETA announced and then moved: the first estimate is struck through, the change spelled out.
  const eta = (days: number, createdHoursAgo: number) => ({
    eventID: crypto.randomUUID(),
    eventType: 'TRANSPORT',
    eventClassifierCode: 'EST',
    eventDateTime: new Date(Date.now() + days * 86_400_000).toISOString(),
    eventCreatedDateTime: new Date(Date.now() - createdHoursAgo * 3_600_000).toISOString(),
    transportEventTypeCode: 'ARRI',
    transportCall: { modeOfTransport: 'VESSEL', UNLocationCode: 'CNSHA' },
    references: [{ referenceType: 'EQ', referenceValue: container }],
  });
  await postEvents(base, key, [eta(20, 1), eta(22, 0)]);
  await expect(timeline.getByTestId('timeline-event')).toHaveCount(4);
  await expect(timeline.locator('[data-classifier="EST"][data-superseded]')).toHaveCount(1);
  await expect(timeline.getByTestId('time-change')).toContainText(/^ETA changed from .+ to .+$/);
  await expect(timeline.getByTestId('classifier-badge')).toHaveText([
    'Actual',
    'Actual',
    'Estimated',
    'Estimated',
  ]);
  // Still the same page: nothing was reloaded.
  expect(await staff.evaluate(() => (window as unknown as { marker?: boolean }).marker)).toBe(true);

  // Back closes the dialog, forward opens it again: the URL is the state.
  await staff.goBack();
  await expect(staff.getByTestId('container-timeline')).toHaveCount(0);
  await staff.goForward();
  await expect(staff.getByTestId('container-timeline').getByTestId('timeline-event')).toHaveCount(4);

  // Staff enter a gate-in by hand on the open timeline (the time starts at now): it joins the others.
  await staff.getByTestId('add-event').click();
  await expect(staff).toHaveURL(/add=1/);
  const form = staff.getByTestId('manual-event-form');
  await expect(form.getByTestId('field-equipmentReference')).toHaveValue(container);
  const choose = async (field: string, option: string) => {
    await form.getByTestId(`field-${field}`).click();
    await staff.getByRole('option', { name: option, exact: true }).click();
  };
  await choose('equipmentEventTypeCode', 'Gated in (GTIN)');
  await choose('emptyIndicatorCode', 'Empty');
  await form.getByTestId('field-transportCall.UNLocationCode').fill('nlrtm');
  await choose('transportCall.modeOfTransport', 'Truck');
  await form.getByTestId('form-submit').click();
  await expect(form).toHaveCount(0);
  await expect(staff).not.toHaveURL(/add=1/);
  await expect(staff.getByTestId('container-timeline').getByTestId('timeline-label')).toHaveText([
    'Gated in',
    'Loaded on board',
    'Gated in',
    'Arrived',
    'Arrived',
  ]);
  await expect(
    staff
      .getByTestId('container-timeline')
      .getByTestId('timeline-event')
      .nth(2)
      .getByTestId('timeline-facts'),
  ).toContainText('NLRTM · Truck · Empty');
  await staffContext.close();

  // ACME's customer sees the container, without the staff tools.
  const acmeContext = await browser.newContext();
  const acme = await acmeContext.newPage();
  await signIn(acme, DEMO.customer);
  await acme.goto(`/containers?q=${container}`);
  await expect(acme.getByTestId(`row-container-${container}`)).toBeVisible();
  await expect(acme.getByTestId('tab-unlinked')).toHaveCount(0);
  await expect(acme.getByTestId('tab-import')).toHaveCount(0);
  await acmeContext.close();

  // GLOBEX's customer learns nothing of it: not in the list, and its timeline "does not exist".
  const globexContext = await browser.newContext();
  const globex = await globexContext.newPage();
  await signIn(globex, GLOBEX_CUSTOMER);
  await globex.goto(`/containers?q=${container}`);
  await expect(globex.getByTestId('list-empty')).toBeVisible();
  await globex.goto(`/containers?open=${container}`);
  await expect(globex.getByTestId('error-state')).toContainText('This container does not exist.');
  await expect(globex.getByTestId('timeline-event')).toHaveCount(0);
  await globexContext.close();
});

test('staff import a CSV with an error row: the preview shows it, "Import valid rows" stores the rest, and they link the events to a dossier', async ({
  page,
  baseURL,
}) => {
  const container = containerNumber('CSVU', 17);
  const wrong = `${container.slice(0, 10)}${(Number(container[10]) + 1) % 10}`;
  const dossier = await acmeDossier(baseURL as string, { customerReference: `CSV-${Date.now()}` });
  const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000).toISOString();
  const csv = [
    'eventClassifierCode,eventDateTime,equipmentEventTypeCode,equipmentReference,emptyIndicatorCode,modeOfTransport,UNLocationCode',
    `ACT,${at(30)},GTIN,${container},LADEN,TRUCK,NLRTM`,
    `ACT,${at(29)},GTIN,${wrong},LADEN,TRUCK,NLRTM`,
    `ACT,${at(28)},STRP,${container},EMPTY,TRUCK,NLRTM`,
  ].join('\n');

  await signIn(page, DEMO.staff);
  await page.goto('/containers?tab=import');
  await page
    .getByTestId('csv-import')
    .locator('input[type="file"]')
    .setInputFiles({ name: 'events.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });

  await expect(page.getByTestId('import-preview-summary')).toContainText('1 of 3 rows have errors');
  await expect(page.getByTestId('import-row-3')).toContainText(
    `equipmentReference: equipmentReference ${wrong} fails the ISO 6346 check digit`,
  );
  await expect(page.getByTestId('import-commit')).toBeDisabled();
  await page.getByTestId('import-valid-rows').click();
  await expect(page.getByTestId('import-result')).toContainText('2 events imported');
  await expect(page.getByTestId('import-result')).toContainText('1 row with errors skipped');

  // No dossier names the container: its events wait under "Unlinked events"; staff link them.
  await page.getByTestId('tab-unlinked').click();
  await page.getByTestId('list-search').fill(container);
  await expect(page.locator('[data-testid^="row-unlinked-"]')).toHaveCount(2);
  await page.getByTestId('link-event').first().click();
  const form = page.getByTestId('link-form');
  await form.getByTestId('field-dossierId').click();
  await form.getByTestId('field-dossierId').fill(dossier.number);
  await page.getByRole('option', { name: new RegExp(dossier.number) }).click();
  await expect(form.getByTestId('field-applyToContainer')).toBeChecked();
  await form.getByTestId('form-submit').click();
  await expect(form).toHaveCount(0);
  await expect(page.getByTestId('list-empty')).toBeVisible();

  // The dossier's events tab now shows the container's timeline.
  await page.goto(`/dossiers/${dossier.number}?tab=events`);
  const group = page.getByTestId('dossier-events-group');
  await expect(group).toHaveAttribute('data-container', container);
  await expect(group.getByTestId('timeline-label')).toHaveText(['Gated in', 'Stripped']);
});
