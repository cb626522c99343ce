import { useSyncExternalStore } from 'react';

/*
 * How the app shows dates and times: one module-level preference that every formatter and date
 * input reads, so the user's profile sets it in one call (lib/session.ts, when `me` loads or changes). Formats use the dayjs
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
/** Bumped on every change: what useDisplayPreferences re-renders on (the zone itself may be read live). */
let version = 0;
const listeners = new Set<() => void>();

/** The preference in force. */
export function displayPreferences(): Readonly<DisplayPreferences> {
  return { ...current, timeZone: current.timeZone ?? browserTimeZone() };
}

function changeTo(next: Stored): void {
  if (
    next.dateFormat === current.dateFormat &&
    next.timeFormat === current.timeFormat &&
    next.timeZone === current.timeZone
  )
    return;
  current = next;
  version++;
  for (const listener of [...listeners]) listener();
}

/**
 * Changes the preference (the profile, a test); components using useDisplayPreferences re-render at
 * once, the rest on their next render. `timeZone: null` goes back to the browser's zone.
 */
export function setDisplayPreferences(
  patch: Partial<Omit<DisplayPreferences, 'timeZone'>> & { timeZone?: string | null | undefined },
): void {
  const next: Stored = { ...current, ...patch, timeZone: current.timeZone };
  if ('timeZone' in patch) next.timeZone = patch.timeZone ?? undefined;
  changeTo(next);
}

/** Back to the defaults (the browser's zone). */
export function resetDisplayPreferences(): void {
  changeTo({ ...DEFAULTS });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const getVersion = () => version;

/** The preference, re-rendering the component when it changes (as useNumberFormat does for numbers). */
export function useDisplayPreferences(): Readonly<DisplayPreferences> {
  useSyncExternalStore(subscribe, getVersion, getVersion);
  return displayPreferences();
}

/** A date-time as one format: '23 Nov 2026, 14:05'. */
export function dateTimeFormat(
  prefs: Pick<DisplayPreferences, 'dateFormat' | 'timeFormat'> = current,
): string {
  return `${prefs.dateFormat}, ${prefs.timeFormat}`;
}
