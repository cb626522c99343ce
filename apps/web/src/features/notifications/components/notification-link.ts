/**
 * A notification's link (a path with an optional query, as the server writes it) as router link
 * props: TanStack Router takes the search as an object, not inside `to`.
 */
export function linkProps(link: string): { to: string; search: never } {
  const url = new URL(link, 'http://app.local');
  // The path is only known at run time, so no route's search type applies (as elsewhere: `as never`).
  return { to: url.pathname, search: Object.fromEntries(url.searchParams) as never };
}

/** The id of a notification's toast, so that opening the bell's list can dismiss the toasts it lists. */
export const toastIdOf = (notificationId: string) => `hub-${notificationId}`;
