import { acmeDossier, DEMO, expect, screens, signIn, test } from './support.ts';

test('a lost connection shows the offline notice and the list’s error with "Try again"; back online, the list returns', async ({
  page,
  context,
  baseURL,
}) => {
  const dossier = await acmeDossier(baseURL as string);
  await signIn(page, DEMO.staff);
  await expect(page.getByTestId(`row-${dossier.number}`)).toBeVisible();
  await expect(page.getByTestId('offline-notice')).toHaveCount(0);

  await context.setOffline(true);
  const notice = page.getByTestId('offline-notice');
  await expect(notice).toHaveText(
    'You are offline — changes are not saved; we retry when the connection is back.',
  );
  // A new load while offline fails (after its retries) instead of showing skeleton rows for ever.
  await page.getByTestId('list-search').fill(dossier.number);
  await expect(page.getByTestId('error-state')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('error-state')).toContainText('The server could not be reached');
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
  await screens(page, 'dossiers-offline');

  await context.setOffline(false);
  await expect(notice).toHaveCount(0);
  await expect(page.getByTestId(`row-${dossier.number}`)).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('error-state')).toHaveCount(0);
});
