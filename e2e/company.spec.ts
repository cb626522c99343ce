import { DEMO, expect, screens, signIn, test } from './support.ts';

test('an admin changes the invoice footer and a series prefix, and finds them after a reload; staff cannot open the screen', async ({
  browser,
}) => {
  const adminContext = await browser.newContext();
  const page = await adminContext.newPage();
  await signIn(page, DEMO.admin);
  await page.getByTestId('nav-admin-company').click();
  await expect(page).toHaveURL(/\/admin\/company$/);
  await page.getByTestId('enable-admin-mode').click();

  // The demo company's data is there.
  await expect(page.getByTestId('field-legalName')).toHaveValue('FVG Forwarding B.V.');
  await expect(page.getByTestId('field-iban')).toHaveValue('NL91ABNA0417164300');
  await screens(page, 'company-settings');
  await screens(page, 'company-series', page.getByTestId('series-table'));

  const footer = `Payment within 30 days, quoting the invoice number. (${Date.now() % 100_000})`;
  await page.getByTestId('field-invoiceFooter').fill(footer);
  await page.getByTestId('field-series.1.prefix').fill('inv-');
  await expect(page.getByTestId('field-series.1.prefix')).toHaveValue('INV-');
  // A mistyped IBAN is refused on its field before anything is sent.
  await page.getByTestId('field-iban').fill('NL92ABNA0417164300');
  await page.getByTestId('form-submit').click();
  await expect(page.getByText('This IBAN has a typo: its check digits do not match')).toBeVisible();
  await screens(page, 'company-iban-error', page.getByTestId('field-iban'));
  await page.getByTestId('field-iban').fill('NL91 ABNA 0417 1643 00');
  await page.getByTestId('form-submit').click();
  await expect(page.getByText('Company settings saved.')).toBeVisible();

  await page.reload();
  const adminModeOff = page.getByTestId('enable-admin-mode');
  if (await adminModeOff.isVisible().catch(() => false)) await adminModeOff.click();
  await expect(page.getByTestId('field-invoiceFooter')).toHaveValue(footer);
  await expect(page.getByTestId('field-series.1.prefix')).toHaveValue('INV-');

  await page.getByTestId('tab-history').click();
  await expect(page.getByText('Invoices: prefix').first()).toBeVisible();
  await screens(page, 'company-history');
  await adminContext.close();

  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await signIn(staff, DEMO.staff);
  await expect(staff.getByTestId('nav-admin-company')).toHaveCount(0);
  await staff.goto('/admin/company');
  await expect(staff.getByTestId('no-access')).toBeVisible();
  await expect(staff.getByTestId('field-invoiceFooter')).toHaveCount(0);
  await staffContext.close();
});
