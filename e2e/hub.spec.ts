import { acmeDossier, DEMO, expect, signIn, test } from './support.ts';

test('staff and the customer chat live on a dossier, see each other, and see each other’s edits without reload', async ({
  browser,
  baseURL,
}) => {
  const dossier = await acmeDossier(baseURL as string, { customerReference: `CHAT-${Date.now()}` });

  const staffContext = await browser.newContext();
  const staff = await staffContext.newPage();
  await signIn(staff, DEMO.staff);
  await staff.goto(`/dossiers/${dossier.number}?tab=chat`);
  await expect(staff.getByTestId('chat-panel')).toBeVisible();
  await expect(staff.getByTestId('chat-empty')).toBeVisible();

  const customerContext = await browser.newContext();
  const customer = await customerContext.newPage();
  await signIn(customer, DEMO.customer);
  await customer.goto(`/dossiers/${dossier.number}?tab=chat`);
  await expect(customer.getByTestId('chat-panel')).toBeVisible();

  // Presence: each sees the other.
  await expect(staff.getByTestId('presence')).toContainText('CC');
  await expect(customer.getByTestId('presence')).toContainText('SS');

  // Staff writes (with markup that must stay text); the customer sees it live.
  await staff.getByTestId('chat-input').fill('Your container is loaded <b>on board</b>');
  await staff.getByTestId('chat-send').click();
  await expect(customer.getByTestId('chat-text').last()).toHaveText(
    'Your container is loaded <b>on board</b>',
  );
  await expect(customer.locator('[data-testid="chat-text"] b')).toHaveCount(0);

  // The customer answers with Enter; staff see it, and their own message is marked read.
  await customer.getByTestId('chat-input').fill('Thanks! When does it arrive?');
  await customer.getByTestId('chat-input').press('Enter');
  await expect(staff.getByTestId('chat-text').last()).toHaveText('Thanks! When does it arrive?');
  await expect(staff.getByTestId('chat-read-marker').first()).toHaveText('Read');

  // A record edited in one context updates in the other without a reload.
  await staff.getByTestId('tab-summary').click();
  await customer.getByTestId('tab-summary').click();
  await expect(customer.getByTestId('status-badge')).toHaveText('Booked');
  await staff.getByTestId('transition-in_transit').click();
  // Marking it departed asks the day (today by default).
  await staff.getByRole('dialog', { name: 'Mark departed' }).getByTestId('transition-dialog-submit').click();
  await expect(staff.getByTestId('status-badge')).toHaveText('In transit');
  await expect(customer.getByTestId('status-badge')).toHaveText('In transit');

  await staffContext.close();
  await customerContext.close();
});
