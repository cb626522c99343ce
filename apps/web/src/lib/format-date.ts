/*
 * Dates as the back office shows them: calendar dates stay ISO (YYYY-MM-DD), which nobody misreads
 * across countries; instants (updatedAt, audit times) are shown in the browser's time zone as
 * YYYY-MM-DD HH:mm.
 */

const pad = (n: number) => String(n).padStart(2, '0');

/** '2026-05-01' or an ISO instant → '2026-05-01'; empty and unreadable values → '—'. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** An ISO instant → '2026-05-01 14:03' in local time; empty and unreadable values → '—'. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return `${formatDate(value)} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The browser's IANA time zone: the days of date filters are the user's days, not UTC's. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
