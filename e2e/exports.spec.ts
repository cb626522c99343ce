import { readFileSync } from 'node:fs';
import { DEMO, expect, signIn, test } from './support.ts';

/**
 * Every list's Export → CSV downloads the list as CSV: a header row, not the JSON of the list route
 * (two areas answered exports only at their `/export` path while the menu asked the list route).
 * The demo company gives every list rows; the header is the export's first column.
 */
const LISTS: { path: string; header: RegExp }[] = [
  { path: '/dossiers', header: /^Number/ },
  { path: '/transports', header: /^Dossier/ },
  { path: '/documents', header: /^File name/ },
  { path: '/sales-offers', header: /^Number/ },
  { path: '/sales-invoices', header: /^Number/ },
  { path: '/declarations', header: /^LRN/ },
  { path: '/stock', header: /^SKU/ },
  { path: '/shipments', header: /^Shipment/ },
];

test('each list exports CSV from its Export menu', async ({ page }) => {
  await signIn(page, DEMO.admin);
  for (const { path, header } of LISTS) {
    await page.goto(path);
    await expect(page.getByRole('grid').first()).toBeVisible();
    await page.getByTestId('export-menu').click();
    const download = page.waitForEvent('download');
    await page.getByTestId('export-csv').click();
    const file = await (await download).path();
    const text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
    const first = text.split(/\r?\n/)[0] ?? '';
    expect(first, `${path} exports CSV`).not.toMatch(/^[{[]/);
    expect(first, `${path} exports its header`).toMatch(header);
    expect(text.split(/\r?\n/).filter(Boolean).length, `${path} exports rows`).toBeGreaterThan(1);
    // Times as the screen writes them ("30 Nov 2026, 10:05", quoted for its comma), ISO 8601 beside
    // them for a machine; statuses in words (issue 27 item 7).
    if (path === '/dossiers') {
      expect(first).toContain('Updated,Updated (ISO 8601)');
      const row = text.split(/\r?\n/)[1] ?? '';
      expect(row).toMatch(/"\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}",\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
      expect(row).toMatch(
        /^D-\d{4}-\d{6},(Requested|Booked|In transit|Arrived|Cleared|Delivered|Closed|Cancelled),/,
      );
    }
  }
});
