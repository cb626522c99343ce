import { dateTimeFormat, displayPreferences } from './display-preferences.ts';

/*
 * Dates as the app shows them, everywhere (lists, facts, histories, chat, timeline, planning):
 * '23 Nov 2026' and '23 Nov 2026, 14:05', with the format and time zone of the display preference
 * (lib/display-preferences.ts). A calendar date (YYYY-MM-DD) is a day, never moved by a zone; an
 * instant is shown in the preferred zone. The date inputs use the same formats and the helpers here
 * to turn what is typed into what the API takes (YYYY-MM-DD; ISO 8601 with the zone's offset).
 */

export { browserTimeZone } from './display-preferences.ts';

import { formatWall, MONTH_NAMES, type WallTime, wallTimeIn } from '@fvg/contracts';

export { formatWall, type WallTime, wallTimeIn } from '@fvg/contracts';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

const utcOf = (w: WallTime) => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);

/** The zone's offset from UTC at `date`, in minutes (+60 for Amsterdam in winter). */
export function zoneOffsetMinutes(date: Date, timeZone: string): number {
  const whole = new Date(Math.floor(date.getTime() / 1000) * 1000);
  return Math.round((utcOf(wallTimeIn(whole, timeZone)) - whole.getTime()) / 60_000);
}

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** An instant as ISO 8601 with the zone's offset at that moment: '2026-03-29T14:05:00+02:00'. */
export function toZonedIso(date: Date, timeZone = displayPreferences().timeZone): string {
  const w = wallTimeIn(date, timeZone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}${offsetText(zoneOffsetMinutes(date, timeZone))}`;
}

const WALL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * A wall-clock reading in `timeZone` ('2026-03-29 14:05' or with seconds) as ISO 8601 with that
 * zone's offset on that day (summer time included). A time the clocks skip (02:30 on the night they
 * go forward) reads as the same minutes after the jump; one they repeat, as its first time. Null for
 * anything else.
 */
export function wallToIso(value: string, timeZone = displayPreferences().timeZone): string | null {
  const m = WALL.exec(value.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second = '0'] = m.slice(1).map((s) => s ?? '0');
  const wall: WallTime = {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour),
    minute: Number(minute),
    second: Number(second),
  };
  const check = new Date(Date.UTC(wall.year, wall.month - 1, wall.day));
  if (check.getUTCMonth() !== wall.month - 1 || check.getUTCDate() !== wall.day || wall.hour > 23)
    return null;
  const guess = utcOf(wall);
  // The zone's offsets half a day either side: a change of offset lies between them at most once.
  const candidates = [guess - 43_200_000, guess + 43_200_000].map(
    (t) => guess - zoneOffsetMinutes(new Date(t), timeZone) * 60_000,
  );
  const shows = (t: number) => utcOf(wallTimeIn(new Date(t), timeZone)) === guess;
  const real = candidates.filter(shows);
  // An hour that happens twice (clocks going back) is its first time; a skipped one is read with
  // the offset before the jump, which lands the same minutes after it.
  const instant = real.length ? Math.min(...real) : (candidates[0] as number);
  return toZonedIso(new Date(instant), timeZone);
}

/** An ISO instant as the wall clock of `timeZone`: '2026-03-29 14:05:00' (Mantine's value form); null when unreadable. */
export function isoToWall(
  iso: string | null | undefined,
  timeZone = displayPreferences().timeZone,
): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  const w = wallTimeIn(date, timeZone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
}

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function wallOfDay(value: string): WallTime | null {
  const m = CALENDAR_DATE.exec(value);
  if (!m) return null;
  return { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), hour: 0, minute: 0, second: 0 };
}

/** '2026-11-23' or an ISO instant → '23 Nov 2026'; empty → '—'; unreadable values as given. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const prefs = displayPreferences();
  const day = wallOfDay(value);
  if (day) return formatWall(day, prefs.dateFormat);
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return formatWall(wallTimeIn(date, prefs.timeZone), prefs.dateFormat);
}

/** An ISO instant → '23 Nov 2026, 14:05' in the preferred zone; a calendar date → formatDate; empty → '—'. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '—';
  if (wallOfDay(value)) return formatDate(value);
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const prefs = displayPreferences();
  return formatWall(wallTimeIn(date, prefs.timeZone), dateTimeFormat(prefs));
}

/** An ISO instant → '14:05' in the preferred zone; empty → '—'. */
export function formatTime(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const prefs = displayPreferences();
  return formatWall(wallTimeIn(date, prefs.timeZone), prefs.timeFormat);
}

/** A wall time already in its own zone (a terminal's local time), laid out as the app's date-time. */
export function formatWallDateTime(wall: WallTime): string {
  return formatWall(wall, dateTimeFormat(displayPreferences()));
}

/** 'Europe/Amsterdam (UTC+01:00)': the zone times are read in, now. */
export function zoneLabel(timeZone = displayPreferences().timeZone, at = new Date()): string {
  return `${timeZone} (UTC${offsetText(zoneOffsetMinutes(at, timeZone))})`;
}

/** Today in the preferred zone, as the API writes a calendar date: '2026-11-23'. */
export function todayIso(timeZone = displayPreferences().timeZone): string {
  const w = wallTimeIn(new Date(), timeZone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
}

/**
 * What a user types as a date, day first (month first with the MM/DD/YYYY preference): '23 Nov 2026', '23 November 2026', '2026-11-23',
 * '23.11.2026', '23/11/2026', '23-11-2026', each optionally followed by a time ('14:05'). A four-digit
 * year is required, so half-typed text never becomes year 2. Returns 'YYYY-MM-DD' or
 * 'YYYY-MM-DD HH:mm:ss', or null.
 */
export function parseTypedDate(text: string, withTime = false): string | null {
  const s = text.trim().replace(/\s+/g, ' ');
  let rest = s;
  let time: string | null = null;
  const t = /[ ,T]+(\d{1,2}):(\d{2})(?::(\d{2}))?(?: ?([ap])\.?m\.?)?$/i.exec(s);
  if (t) {
    let [h, mi, se] = [Number(t[1]), Number(t[2]), Number(t[3] ?? 0)];
    // '2:05 PM' as the 12-hour time format shows it.
    const half = t[4]?.toLowerCase();
    if (half && (h < 1 || h > 12)) return null;
    if (half) h = (h % 12) + (half === 'p' ? 12 : 0);
    if (h > 23 || mi > 59 || se > 59) return null;
    time = `${pad(h)}:${pad(mi)}:${pad(se)}`;
    rest = s.slice(0, t.index).trim();
  }
  const ymd = dayParts(rest);
  if (!ymd) return null;
  const [y, mo, d] = ymd;
  const check = new Date(Date.UTC(y, mo - 1, d));
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return null;
  const day = `${pad(y, 4)}-${pad(mo)}-${pad(d)}`;
  if (!withTime) return time ? null : day;
  return time ? `${day} ${time}` : null;
}

/** [year, month, day] of a typed day: ISO, day.month.year (dots, slashes, dashes) or day month-name year. */
function dayParts(text: string): [number, number, number] | null {
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  if (iso) return [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  const numeric = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})$/.exec(text);
  // Month first only for those who chose it (MM/DD/YYYY); everyone else types the day first.
  if (numeric && displayPreferences().dateFormat.startsWith('M'))
    return [Number(numeric[3]), Number(numeric[1]), Number(numeric[2])];
  if (numeric) return [Number(numeric[3]), Number(numeric[2]), Number(numeric[1])];
  const named = /^(\d{1,2})[ .-]?([a-z]{3,9})\.?[ ,.-]*(\d{4})$/i.exec(text);
  if (!named) return null;
  const name = (named[2] as string).toLowerCase();
  const index = MONTH_NAMES.findIndex((month) => {
    const m = month.toLowerCase();
    return name.length === 3 ? m.startsWith(name) : m === name;
  });
  return index < 0 ? null : [Number(named[3]), index + 1, Number(named[1])];
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
