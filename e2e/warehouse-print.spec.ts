import { apiAs, DEMO, expect, screens, signIn, test } from './support.ts';

/*
 * The warehouse's printed papers against the real app: a receipt with two pallets made through the
 * API, its handling-unit tree (expand, collapse, a unit's movements) and its A6 pallet labels in print
 * media (only the label on paper, with the GS1-128 barcode); then a shipment of that stock, released
 * so FIFO takes both pallets, and its pick and packing list in walking order with the SSCC barcodes,
 * for staff and for the customer it belongs to.
 */

type Api = Awaited<ReturnType<typeof apiAs>>;

interface Unit {
  id: string;
  kind: string;
  sscc: string | null;
  parentId: string | null;
}
interface StockRecord {
  id: string;
  version: number;
  handlingUnits: Unit[];
}
interface Shipment {
  id: string;
  number: string;
  version: number;
  status: string;
  lines: {
    allocations: { location: string; quantity: number; handlingUnit: { sscc: string | null } | null }[];
  }[];
}

/** The GS1 mod-10 check digit (weights 3,1,3,1… from the right), to make SSCCs unique per run. */
function sscc(serial: number): string {
  const data = `0871234${String(serial).padStart(9, '0')}`.padStart(17, '0');
  let sum = 0;
  for (let i = 0; i < data.length; i++) sum += Number(data[data.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return data + String((10 - (sum % 10)) % 10);
}

async function acmeId(api: Api) {
  const parties = await api.call<{ items: { id: string; code: string }[] }>('GET', '/parties?q=ACME');
  return parties.items.find((p) => p.code === 'ACME')?.id as string;
}

/** 60 pieces on two pallets: pallet 1 (40, two cartons of 20) in WH1-B-10, pallet 2 (20 items) in WH1-A-2. */
async function receiveTwoPallets(admin: Api, ownerId: string) {
  const run = Date.now() % 1_000_000_000;
  const sku = `PRT-${run}`;
  const [ssccA, ssccB] = [sscc(run), sscc(run + 1)];
  const receipt = await admin.call<{ lines: { id: string }[] }>('POST', '/stock-receipts', {
    ownerId,
    receivedOn: '2026-11-02',
    customsStatus: 'union',
    lines: [
      {
        sku,
        description: 'Laptop computers 14 inch, grey',
        unit: 'H87',
        quantity: 60,
        location: 'WH1-B-10',
        handlingUnits: [
          {
            kind: 'pallet',
            sscc: ssccA,
            quantity: 40,
            location: 'WH1-B-10',
            children: [
              { kind: 'carton', reference: 'CTN-1', quantity: 20 },
              { kind: 'carton', reference: 'CTN-2', quantity: 20 },
            ],
          },
          {
            kind: 'pallet',
            sscc: ssccB,
            quantity: 20,
            location: 'WH1-A-2',
            children: [{ kind: 'item', reference: 'ITM-1', quantity: 20 }],
          },
        ],
      },
    ],
  });
  const stockId = receipt.lines[0]?.id as string;
  return { sku, ssccA, ssccB, stockId };
}

test('the tree of a receipt with two pallets, a unit’s movements, and a printed pallet label', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const admin = await apiAs(baseURL as string, DEMO.admin);
  const { sku, ssccA, ssccB, stockId } = await receiveTwoPallets(admin, await acmeId(admin));
  // Pallet 2 moves aisle: its movements are then a receipt and a transfer.
  const record = await admin.call<StockRecord>('GET', `/stock/${stockId}`);
  const palletB = record.handlingUnits.find((u) => u.sscc === ssccB) as Unit;
  const palletA = record.handlingUnits.find((u) => u.sscc === ssccA) as Unit;
  await admin.call('POST', `/stock/${stockId}/movements`, {
    kind: 'transfer',
    version: record.version,
    toLocation: 'WH1-A-3',
    handlingUnitId: palletB.id,
  });

  // window.print() opens no dialog in headless Chromium; counting the calls shows the button asked.
  await page.addInitScript(() => {
    (window as unknown as { printCalls: number }).printCalls = 0;
    window.print = () => {
      (window as unknown as { printCalls: number }).printCalls++;
    };
  });
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, DEMO.admin);
  await page.goto(`/stock/${stockId}/tree`);
  await expect(page.getByTestId('hu-tree')).toBeVisible();
  await expect(page.getByTestId('stock-tree-sku')).toHaveText(sku);
  await expect(page.getByTestId('fact-on-hand')).toHaveText('60 pieces');

  const items = page.getByRole('treeitem');
  // Pallets open first: two pallets, two cartons, one item.
  await expect(items).toHaveCount(5);
  await expect(page.getByTestId(`hu-node-${palletA.id}`)).toContainText(`(00) ${ssccA}`);
  await expect(page.getByTestId(`hu-node-${palletA.id}`).getByTestId('hu-quantity')).toHaveText('40 pieces');
  await page.getByTestId('tree-collapse-all').click();
  await expect(items).toHaveCount(2);
  await page.getByTestId('tree-expand-all').click();
  await expect(items).toHaveCount(5);
  // The keyboard closes and opens a pallet.
  const nodeA = page.getByTestId(`hu-node-${palletA.id}`);
  await nodeA.click();
  await nodeA.press('ArrowLeft');
  await expect(items).toHaveCount(3);
  await nodeA.press('Enter');
  await expect(items).toHaveCount(5);

  // Pallet 2's own movements: the transfer (newest first), then the receipt.
  const nodeB = page.getByTestId(`hu-node-${palletB.id}`);
  await nodeB.click();
  await expect(page.getByTestId('hu-detail-title')).toHaveText('Movements');
  await expect(page.getByTestId('hu-detail-name')).toHaveText(`Pallet (00) ${ssccB}`);
  const moves = page.getByTestId('hu-movements').getByTestId('hu-movement');
  await expect(moves.first()).toHaveAttribute('data-kind', 'transfer');
  await expect(moves.first()).toContainText('WH1-A-2 → WH1-A-3');
  await expect(nodeB.getByTestId('hu-location')).toHaveText('WH1-A-3');
  await screens(page, 'warehouse-stock-tree');

  // Print pallet 2's label: on paper the label alone, its barcode drawn.
  await page.setViewportSize({ width: 1440, height: 900 });
  await nodeB.getByTestId('hu-print-label').click();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { printCalls: number }).printCalls))
    .toBe(1);
  const sheet = page.getByTestId('pallet-label-sheet');
  await expect(sheet.getByTestId('pallet-label')).toHaveCount(1);
  await expect(sheet).toBeHidden();
  await page.emulateMedia({ media: 'print' });
  await expect(sheet).toBeVisible();
  await expect(page.getByTestId('hu-tree')).toBeHidden();
  await expect(page.getByTestId('navbar')).toBeHidden();
  const label = sheet.getByTestId('pallet-label');
  await expect(label).toBeVisible();
  await expect(label).toContainText(sku);
  await expect(label).toContainText('Acme');
  await expect(label).toContainText('WH1-A-3');
  await expect(label.getByTestId('pallet-label-quantity')).toHaveText('20 pieces');
  await expect(label.getByTestId('pallet-label-barcode').locator('svg path').first()).toBeAttached();
  await expect(label).toContainText(`(00) ${ssccB}`);
  await screens(page, 'warehouse-pallet-label');
  // One A6 page per label.
  const one = await page.pdf({ preferCSSPageSize: true });
  expect(pdfPages(one)).toBe(1);
  await page.emulateMedia({ media: null });

  await page.getByTestId('print-all-labels').click();
  await expect(sheet.getByTestId('pallet-label')).toHaveCount(2);
  const both = await page.pdf({ preferCSSPageSize: true });
  expect(pdfPages(both)).toBe(2);
});

test('the pick list of a released shipment, in walking order with SSCC barcodes, for staff and its customer', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const admin = await apiAs(baseURL as string, DEMO.admin);
  const ownerId = await acmeId(admin);
  const { sku, ssccA, ssccB } = await receiveTwoPallets(admin, ownerId);
  const draft = await admin.call<Shipment>('POST', '/shipments', {
    ownerId,
    consigneeName: 'Globex GmbH',
    deliveryAddress: 'Hafenstraße 1\n20457 Hamburg',
    plannedDate: '2026-11-30',
    customerReference: 'PO-7781',
    lines: [{ sku, quantity: 50 }],
  });

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, DEMO.admin);
  await page.goto(`/shipments-alt/${draft.id}`);
  await expect(page.getByTestId('pick-list-draft')).toHaveText(
    'Not released yet — quantities are not reserved',
  );
  await expect(page.getByTestId('pick-row')).toHaveCount(1);

  const released = await admin.call<Shipment>('POST', `/shipments/${draft.id}/transitions`, {
    to: 'released',
    version: draft.version,
  });
  // FIFO by position takes pallet 1 (WH1-B-10) whole and 10 of pallet 2 (WH1-A-2).
  expect(released.lines[0]?.allocations.map((a) => a.location)).toEqual(['WH1-B-10', 'WH1-A-2']);

  await page.reload();
  await expect(page.getByTestId('pick-list')).toBeVisible();
  await expect(page.getByTestId('pick-list-draft')).toHaveCount(0);
  await expect(page).toHaveTitle(`Pick list — ${draft.number} · FVG`);
  await expect(page.getByTestId('pick-list-number')).toHaveText(draft.number);
  await expect(page.getByTestId('pick-list-barcode').locator('svg')).toBeVisible();
  await expect(page.getByTestId('pick-list-header')).toContainText('Globex GmbH');
  await expect(page.getByTestId('pick-list-header')).toContainText('20457 Hamburg');
  // Walking order: aisle A before aisle B, whatever order FIFO took them in.
  const rows = page.getByTestId('pick-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveAttribute('data-location', 'WH1-A-2');
  await expect(rows.nth(1)).toHaveAttribute('data-location', 'WH1-B-10');
  await expect(rows.nth(0).getByTestId('pick-row-unit')).toContainText(`(00) ${ssccB}`);
  await expect(rows.nth(0).getByTestId('pick-row-sscc').locator('svg')).toBeVisible();
  await expect(rows.nth(0).getByTestId('pick-row-quantity')).toHaveText('10 pieces');
  await expect(rows.nth(1).getByTestId('pick-row-unit')).toContainText(`(00) ${ssccA}`);
  await expect(rows.nth(1).getByTestId('pick-row-quantity')).toHaveText('40 pieces');
  await expect(page.getByTestId('packing-total')).toContainText('50 pieces');
  await expect(page.getByTestId('pick-list-signatures')).toContainText('Driver');
  await screens(page, 'warehouse-pick-list');

  // On paper: the A4 list alone.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByTestId('navbar')).toBeHidden();
  await expect(page.getByTestId('pick-list-toolbar')).toBeHidden();
  await expect(page.getByTestId('pick-list')).toBeVisible();
  await screens(page, 'warehouse-pick-list-print');
  await page.emulateMedia({ media: null });

  // An address naming no shipment: the app's not-found page.
  await page.goto('/shipments-alt/00000000-0000-4000-8000-000000000000');
  await expect(page.getByTestId('not-found')).toBeVisible();

  // The customer the shipment belongs to (ACME, with warehouse access) prints it too.
  const customer = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await signIn(customer, DEMO.customer);
  await customer.goto(`/shipments-alt/${draft.id}`);
  await expect(customer.getByTestId('pick-row')).toHaveCount(2);
  await expect(customer.getByTestId('pick-list-print')).toBeVisible();
  await customer.close();
});

/** The pages of a PDF, counted from its page objects (a light check; no PDF library needed). */
function pdfPages(pdf: Buffer): number {
  return (pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? []).length;
}
