/*
 * How the app shows dates and times: one module-level preference that every formatter and date
 * input reads, so the user's profile (a later issue) can set it in one call. Formats use the dayjs
 * tokens Mantine's date inputs take (YYYY, MMMM, MMM, MM, M, DD, D, HH, H, mm, [literal]).
 * See docs/adr/0021-dates-and-formats.md.
 */

export interface DisplayPreferences {
  /** A calendar date, e.g. 'D MMM YYYY' → '23 Nov 2026'. */
  dateFormat: string;
  /** A time of day, e.g. 'HH:mm' → '14:05'. */
  timeFormat: string;
  /** The IANA zone instants are shown and entered in. */
  timeZone: string;
}

export const DEFAULT_DATE_FORMAT = 'D MMM YYYY';
export const DEFAULT_TIME_FORMAT = 'HH:mm';

/** The browser's IANA time zone: the days of date filters are the user's days, not UTC's. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

interface Stored {
  dateFormat: string;
  timeFormat: string;
  /** Unset: the browser's zone, read each time (it follows the machine). */
  timeZone?: string | undefined;
}

const DEFAULTS: Stored = { dateFormat: DEFAULT_DATE_FORMAT, timeFormat: DEFAULT_TIME_FORMAT };
let current: Stored = { ...DEFAULTS };

/** The preference in force. */
export function displayPreferences(): Readonly<DisplayPreferences> {
  return { ...current, timeZone: current.timeZone ?? browserTimeZone() };
}

/** Changes the preference (the profile, a test); screens pick it up on their next render. */
export function setDisplayPreferences(patch: Partial<DisplayPreferences>): void {
  current = { ...current, ...patch };
}

/** Back to the defaults (the browser's zone). */
export function resetDisplayPreferences(): void {
  current = { ...DEFAULTS };
}

/** A date-time as one format: '23 Nov 2026, 14:05'. */
export function dateTimeFormat(
  prefs: Pick<DisplayPreferences, 'dateFormat' | 'timeFormat'> = current,
): string {
  return `${prefs.dateFormat}, ${prefs.timeFormat}`;
}
