import { acmeDossier, apiAs, DEMO, expect, screens, signIn, test } from './support.ts';

/*
 * Issue 10, item 14 in a real browser: a customer's chat message reaches staff who are on another
 * screen as a toast, a higher count on the bell and an unread badge in the dossier list; the bell's
 * list opens the record and marks it read. Screenshots of the list with the badge and of the open bell.
 */

const unreadOf = (label: string | null) => Number(/(\d+) unread/.exec(label ?? '')?.[1] ?? 0);

test('a chat message from a customer raises a notification for staff on another screen', async ({
  browser,
  baseURL,
}) => {
  const dossier = await acmeDossier(baseURL as string, { customerReference: `NOTE-${Date.now()}` });

  const staffContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const staff = await staffContext.newPage();
  await signIn(staff, DEMO.staff);
  const bell = staff.getByTestId('notification-bell');
  await expect(bell).toBeVisible();
  // Once the hub is connected (the status dot says so), nothing sent from now on is missed.
  await expect(staff.getByTestId('hub-status')).toHaveAttribute('data-status', 'connected', {
    timeout: 30_000,
  });
  await expect(staff.getByTestId(`row-${dossier.number}`)).toBeVisible();
  const before = unreadOf(await bell.getAttribute('aria-label'));

  // A booking request too, so the list shows both kinds.
  const customerApi = await apiAs(baseURL as string, DEMO.customer);
  const booking = await customerApi.call<{ number: string }>('POST', '/dossiers/bookings', {
    type: 'import',
    mode: 'air',
    originLocode: 'CNSHA',
    destinationLocode: 'NLAMS',
    cargoDescription: 'Spare parts',
  });

  const customerContext = await browser.newContext();
  const customer = await customerContext.newPage();
  await signIn(customer, DEMO.customer);
  await customer.goto(`/dossiers/${dossier.number}?tab=chat`);
  await customer.getByTestId('chat-input').fill('Is my container on the vessel yet?');
  await customer.getByTestId('chat-send').click();
  await expect(customer.getByTestId('chat-text').last()).toHaveText('Is my container on the vessel yet?');

  // Staff, still on the dossier list: a toast, two more on the bell, a badge on the dossier's row.
  const toast = staff.locator('.mantine-Notification-root', { hasText: `New message on ${dossier.number}` });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText('Carla Customer: Is my container on the vessel yet?');
  await expect(bell).toHaveAttribute('aria-label', `Notifications, ${before + 2} unread`);
  const badge = staff.getByTestId(`row-${dossier.number}`).getByTestId('row-unread');
  await expect(badge).toHaveText('1');
  await screens(staff, 'notifications-toast-and-badge');

  // The bell's list: newest first, unread marked, times in words, by keyboard.
  await staff.setViewportSize({ width: 1440, height: 900 });
  await bell.focus();
  await staff.keyboard.press('Enter');
  const list = staff.getByTestId('notification-list');
  await expect(list).toBeVisible();
  // The list says what the toast said: the toast goes and no longer covers it.
  await expect(toast).toBeHidden();
  const items = list.getByTestId('notification-item');
  await expect(items.first()).toContainText(`New message on ${dossier.number}`);
  await expect(items.first()).toContainText('just now');
  await expect(items.first()).toHaveAttribute('data-unread', 'true');
  await expect(items.nth(1)).toContainText(`Booking request ${booking.number}`);
  await expect(items.nth(1)).toContainText('Acme Trading B.V. asks to book an air import (CNSHA → NLAMS).');
  await screens(staff, 'notifications-bell-open');

  // Opening it goes to the dossier's chat and marks it read.
  await items.first().click();
  await expect(staff).toHaveURL(new RegExp(`/dossiers/${dossier.number}\\?tab=chat$`));
  await expect(staff.getByTestId('chat-text').last()).toHaveText('Is my container on the vessel yet?');
  await expect(bell).toHaveAttribute('aria-label', `Notifications, ${before + 1} unread`);

  // Mark all read empties the count.
  await bell.click();
  await staff.getByTestId('notifications-mark-all').click();
  await expect(bell).toHaveAttribute('aria-label', 'Notifications');
  await expect(list.locator('[data-testid="notification-item"][data-unread]')).toHaveCount(0);

  await staffContext.close();
  await customerContext.close();
});
