import { expect, test } from './support.ts';

test('the API docs page renders the operations of /api/openapi.json under the app CSP', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
  });
  const spec = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/openapi.json', {
    timeout: 15_000,
  });

  await page.goto('/api/docs');

  expect((await spec).status()).toBe(200);
  const createDossier = page.locator('.opblock-post').filter({
    has: page.locator('.opblock-summary-path[data-path="/api/dossiers"]'),
  });
  await expect(createDossier.locator('.opblock-summary-method')).toHaveText('POST');
  await expect(page.locator('.opblock-get .opblock-summary-path[data-path="/api/health"]')).toBeVisible();
  expect(problems).toEqual([]);
});
