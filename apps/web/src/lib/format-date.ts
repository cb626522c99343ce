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

/**
 * An instant relative to `now`, for feeds (notifications): 'just now', '5 min ago', '3 h ago',
 * 'yesterday', '4 days ago'; from a week back the date itself (formatDate). Unreadable → as given.
 */
export function formatRelativeTime(value: string, now: Date = new Date()): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const minutes = Math.floor((now.getTime() - date.getTime()) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const startOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((startOfDay(now) - startOfDay(date)) / 86_400_000);
  if (days <= 1) return 'yesterday';
  if (days < 7) return `${days} days ago`;
  return formatDate(value);
}
