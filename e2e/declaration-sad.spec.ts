import type { Page } from '@playwright/test';
import { apiAs, DEMO, expect, screens, signIn, test } from './support.ts';

/*
 * The SAD view (/declarations/{type}/{id}/alt) against the real app and its sandbox authority
 * (global-setup.ts makes it answer within seconds): an import made and lodged through the API is laid
 * out box by box on A4 sheets of three items, printed to a PDF of as many pages, refused under another
 * type, and opened by the customer it belongs to. A transit draft of seven items prints three pages.
 */

const party = (name: string, country: string, eori: string | null) => ({
  partyId: null,
  name,
  street: 'Waalhaven 12',
  postalCode: '3089 JH',
  city: 'Rotterdam',
  countryCode: country,
  eori,
});

const item = (n: number, over: Record<string, unknown> = {}) => ({
  commodityCode: '8471300000',
  description: `Portable computers, lot ${n}`,
  countryOfOrigin: 'CN',
  preference: '100',
  procedureCode: '4000',
  additionalProcedureCodes: ['000'],
  valuationMethod: '1',
  // CN 8471: number of items (DE 6/2).
  supplementaryUnits: '10',
  packages: 10,
  packageKind: 'CT',
  marks: `ACME ${n}/4`,
  grossMassKg: '120.000',
  netMassKg: '100.000',
  invoiceValue: '1000.00',
  customsValue: '1050.00',
  statisticalValue: '1050.00',
  dutyRate: '2.7',
  vatRate: '21',
  vatCosts: '50.00',
  containers: ['MSKU6011672'],
  supportingDocuments: [{ type: 'N380', reference: `INV-2026-00${n}` }],
  ...over,
});

async function acmeId(staff: Awaited<ReturnType<typeof apiAs>>) {
  const parties = await staff.call<{ items: { id: string; code: string }[] }>('GET', '/parties?q=ACME');
  return parties.items.find((p) => p.code === 'ACME')?.id as string;
}

interface Declared {
  id: string;
  lrn: string;
  mrn: string | null;
  status: string;
  version: number;
}

/** The pages of a PDF, counted from its page objects (a light check; no PDF library needed). */
function pdfPages(pdf: Buffer): number {
  return (pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? []).length;
}

const box = (scope: Page | ReturnType<Page['locator']>, n: string) => scope.getByTestId(`sad-box-${n}-value`);

test('the SAD of a lodged import: boxes, sheets of three items, an A4 PDF of as many pages, not under another type, and for its customer', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const staff = await apiAs(baseURL as string, DEMO.staff);
  const created = await staff.call<Declared>('POST', '/declarations', {
    type: 'import',
    customerId: await acmeId(staff),
    declarant: party('Acme Imports BV', 'NL', 'NL009876543'),
    representative: party('FVG Forwarding BV', 'NL', 'NL001234567'),
    representativeStatus: '2',
    consignor: party('Shenzhen Electronics Ltd', 'CN', null),
    consignee: party('Acme Imports BV', 'NL', 'NL009876543'),
    officeOfLodgement: 'NL000396',
    officeOfExitEntry: 'NL000396',
    countryOfDispatch: 'CN',
    countryOfDestination: 'NL',
    transportModeBorder: '1',
    transportModeInland: '3',
    meansAtDeparture: 'MAERSK ESSEX',
    meansAtDepartureCountry: 'DK',
    meansAtBorder: 'MAERSK ESSEX',
    meansAtBorderCountry: 'DK',
    containerIndicator: true,
    incoterm: 'CIF',
    incotermPlace: 'Rotterdam',
    natureOfTransaction: '11',
    currency: 'EUR',
    invoiceTotal: '4000.00',
    methodOfPayment: 'H',
    locationOfGoods: 'NLRTM ECT Delta',
    locationOfGoodsType: 'C',
    locationOfGoodsQualifier: 'Z',
    items: [1, 2, 3, 4].map((n) => item(n)),
  });
  await staff.call('POST', `/declarations/${created.id}/lodge`, { version: created.version });
  // The sandbox accepts within seconds and allocates the MRN.
  let declared = created;
  await expect
    .poll(
      async () => {
        declared = await staff.call<Declared>('GET', `/declarations/${created.id}`);
        return declared.mrn;
      },
      { timeout: 30_000 },
    )
    .not.toBeNull();

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, DEMO.staff);
  await page.goto(`/declarations/import/${created.id}/alt`);
  await expect(page.getByTestId('sad-document')).toBeVisible();
  await expect(page).toHaveTitle(`SAD — import — ${created.lrn} · FVG`);

  // Four items: the header and items 1–3 on sheet 1, item 4 on a continuation sheet.
  const sheets = page.getByTestId('sad-sheet');
  await expect(sheets).toHaveCount(2);
  const [first, second] = [sheets.nth(0), sheets.nth(1)];
  for (const sheet of [first, second]) {
    await expect(sheet.getByTestId('sad-type-tag')).toHaveText('import');
    await expect(sheet.getByTestId('sad-mrn')).toHaveText(declared.mrn as string);
    await expect(sheet.getByTestId('sad-sandbox')).toContainText(
      'Sandbox authority — not a real customs lodgement',
    );
    await expect(box(sheet, '1')).toHaveText('IMA');
    await expect(box(sheet, '7')).toHaveText(created.lrn);
  }
  await expect(box(first, '3')).toHaveText('1 / 2');
  await expect(box(second, '3')).toHaveText('2 / 2');
  await expect(box(first, '5')).toHaveText('4');
  await expect(box(first, '6')).toHaveText('40');
  await expect(box(first, '2')).toContainText('Shenzhen Electronics Ltd');
  await expect(box(first, '8')).toContainText('NL009876543');
  await expect(box(first, '14')).toContainText('FVG Forwarding BV');
  await expect(box(first, '14')).toContainText('2 · Direct representation');
  await expect(box(first, '15a')).toHaveText('CN');
  await expect(box(first, '17a')).toHaveText('NL');
  await expect(box(first, '19')).toHaveText('1 · yes');
  await expect(box(first, '20')).toHaveText('CIF Rotterdam');
  await expect(box(first, '22')).toHaveText('EUR €4,000.00');
  await expect(box(first, '25')).toHaveText('1 · Sea');
  await expect(box(first, '26')).toHaveText('3 · Road');
  await expect(box(first, '29')).toHaveText('NL000396');
  await expect(box(first, '30')).toHaveText('CZ NLRTM ECT Delta');
  await expect(first.getByTestId(/^sad-item-/)).toHaveCount(3);
  const item1 = first.getByTestId('sad-item-1');
  await expect(box(item1, '31')).toContainText('10 × Carton (CT)');
  await expect(box(item1, '31')).toContainText('MSKU6011672');
  await expect(box(item1, '32')).toHaveText('1');
  await expect(box(item1, '33')).toHaveText('8471 30 00 00');
  await expect(box(item1, '35')).toHaveText('120 kg');
  // Box 37: 4000, and under it the additional procedure 000.
  await expect(box(item1, '37')).toHaveText('4000000');
  await expect(box(item1, '41')).toHaveText('10 p/st');
  await expect(box(item1, '42')).toHaveText('€1,000.00');
  await expect(box(item1, '43')).toHaveText('1');
  await expect(box(item1, '38')).toHaveText('100 kg');
  await expect(box(item1, '44')).toHaveText('N380 · Commercial invoice — INV-2026-001');
  // Box 47, worked by hand: duty 1,050.00 × 2.7 % = 28.35; VAT (1,050.00 + 28.35 + 50.00) × 21 % = 236.95.
  await expect(item1.getByTestId('sad-box-47')).toContainText('Estimate');
  await expect(item1.getByTestId('sad-tax-duty')).toHaveText('A00 Customs duty€1,050.002.7 %€28.35H');
  await expect(item1.getByTestId('sad-tax-vat')).toHaveText('B00 Import VAT€1,128.3521 %€236.95H');
  await expect(second.getByTestId('sad-summary')).toBeVisible();
  await expect(box(second.getByTestId('sad-item-4'), '32')).toHaveText('4');
  await expect(page.getByTestId('sad-back')).toHaveAttribute('href', `/declarations/${created.lrn}`);

  await screens(page, 'declaration-sad');
  await page
    .getByTestId('sad-sheet')
    .nth(0)
    .evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await screens(page, 'declaration-sad-items', page.getByTestId('sad-item-1'));
  // Box B on the first sheet: the duties and taxes by type and how they are paid.
  const accounting = page.getByTestId('sad-sheet').nth(0).getByTestId('sad-accounting');
  await expect(accounting).toContainText('A00');
  await expect(accounting).toContainText('MP H');
  await screens(page, 'declaration-sad-accounting', accounting);

  // Printed: one A4 page per sheet, nothing of the app's shell.
  const pdf = await page.pdf({ format: 'A4' });
  expect(pdfPages(pdf)).toBe(2);
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByTestId('navbar')).toBeHidden();
  await expect(page.getByTestId('sad-toolbar')).toBeHidden();
  await expect(page.getByTestId('sad-sheet').first()).toBeVisible();
  await page.emulateMedia({ media: null });

  // Under another type the address names no SAD view.
  await page.goto(`/declarations/export/${created.id}/alt`);
  await expect(page.getByTestId('not-found')).toBeVisible();
  await expect(page.getByTestId('sad-document')).toHaveCount(0);

  // The customer of the declaration opens its SAD view (read-only by nature).
  const customer = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await signIn(customer, DEMO.customer);
  await customer.goto(`/declarations/import/${created.id}/alt`);
  await expect(customer.getByTestId('sad-document')).toBeVisible();
  await expect(box(customer.getByTestId('sad-sheet').first(), '7')).toHaveText(created.lrn);
  await expect(customer.getByTestId('sad-print')).toBeVisible();
  await screens(customer, 'declaration-sad-customer');
  await customer.close();
});

test('a transit draft of seven items prints three A4 pages, with its principal, offices and guarantee', async ({
  page,
  baseURL,
}) => {
  const staff = await apiAs(baseURL as string, DEMO.staff);
  const draft = await staff.call<Declared>('POST', '/declarations', {
    type: 'transit',
    category: 'T1',
    customerId: await acmeId(staff),
    holder: party('FVG Forwarding BV', 'NL', 'NL001234567'),
    consignor: party('Acme Imports BV', 'NL', 'NL009876543'),
    consignee: party('Zurich Handels AG', 'CH', null),
    officeOfLodgement: 'NL000396',
    officeOfDestination: 'CH001234',
    officesOfTransit: ['DE004058'],
    countryOfDispatch: 'NL',
    countryOfDestination: 'CH',
    guaranteeType: '1',
    guaranteeReference: '26NL0000000000001',
    guaranteeAmount: '5000.00',
    seals: [{ identifier: 'FVG427100', container: 'MSKU6011672' }],
    limitDate: '2026-12-15',
    items: Array.from({ length: 7 }, (_, i) =>
      item(i + 1, {
        procedureCode: null,
        additionalProcedureCodes: [],
        valuationMethod: null,
        supplementaryUnits: null,
        preference: null,
        customsValue: null,
        dutyRate: null,
        vatRate: null,
        vatCosts: null,
        previousDocuments: [{ type: 'N830', reference: '25NL000000001234A0' }],
      }),
    ),
  });

  await signIn(page, DEMO.staff);
  await page.goto(`/declarations/transit/${draft.id}/alt`);
  await expect(page.getByTestId('sad-document')).toBeVisible();
  await expect(page).toHaveTitle(`SAD — transit — ${draft.lrn} · FVG`);
  const sheets = page.getByTestId('sad-sheet');
  await expect(sheets).toHaveCount(3);
  const first = sheets.nth(0);
  await expect(first.getByTestId('sad-type-tag')).toHaveText('transit');
  await expect(first.getByTestId('sad-mrn')).toHaveText('not allocated yet');
  await expect(box(first, '1')).toHaveText('T1');
  await expect(box(first, '3')).toHaveText('1 / 3');
  await expect(box(first, 'C')).toHaveText('NL000396');
  await expect(box(first, '50')).toContainText('FVG Forwarding BV');
  await expect(box(first, '51')).toHaveText('DE004058');
  await expect(box(first, '52')).toContainText('1 · Comprehensive guarantee');
  await expect(box(first, '52')).toContainText('26NL0000000000001');
  await expect(box(first, '52')).toContainText('€5,000.00');
  await expect(box(first, '53')).toHaveText('CH001234');
  // Box D: the seals affixed and the time limit (DE 7/18).
  await expect(box(first, 'D')).toContainText('Seals affixed 1 · FVG427100');
  await expect(box(first, 'D')).toContainText('Time limit 15 Dec 2026');
  await expect(box(first.getByTestId('sad-item-1'), '40')).toHaveText(
    'N830 · Export declaration — 25NL000000001234A0',
  );
  await expect(box(sheets.nth(2), '3')).toHaveText('3 / 3');
  await expect(sheets.nth(2).getByTestId(/^sad-item-/)).toHaveCount(1);
  await screens(page, 'declaration-sad-transit', page.getByTestId('sad-transit'));

  expect(pdfPages(await page.pdf({ format: 'A4' }))).toBe(3);

  // The import address of a transit is no SAD view either.
  await page.goto(`/declarations/import/${draft.id}/alt`);
  await expect(page.getByTestId('not-found')).toBeVisible();
});
