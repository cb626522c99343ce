/*
 * Wall-clock readings and their layout with the date and time formats of the user preferences
 * (dayjs-style tokens, the subset DATE_FORMATS and TIME_FORMATS use): the screens' dates and the
 * exports' (issue 27 item 7) come from the same two functions.
 */

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The months in English, as the date formats name them. */
export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** A wall-clock reading: what a clock in some zone shows. */
export interface WallTime {
  year: number;
  /** 1–12. */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const TOKENS = /\[([^\]]*)]|YYYY|MMMM|MMM|MM|M|DD|D|HH|H|hh|h|mm|ss|A/g;

/** Lays out a wall time with dayjs-style tokens (the subset the preferences use). */
export function formatWall(wall: WallTime, format: string): string {
  return format.replace(TOKENS, (token, literal: string | undefined) => {
    if (literal !== undefined) return literal;
    switch (token) {
      case 'YYYY':
        return pad(wall.year, 4);
      case 'MMMM':
        return MONTH_NAMES[wall.month - 1] ?? '';
      case 'MMM':
        return (MONTH_NAMES[wall.month - 1] ?? '').slice(0, 3);
      case 'MM':
        return pad(wall.month);
      case 'M':
        return String(wall.month);
      case 'DD':
        return pad(wall.day);
      case 'D':
        return String(wall.day);
      case 'HH':
        return pad(wall.hour);
      case 'H':
        return String(wall.hour);
      case 'hh':
        return pad(((wall.hour + 11) % 12) + 1);
      case 'h':
        return String(((wall.hour + 11) % 12) + 1);
      case 'A':
        return wall.hour < 12 ? 'AM' : 'PM';
      case 'mm':
        return pad(wall.minute);
      default:
        return pad(wall.second);
    }
  });
}

const partsFormatters = new Map<string, Intl.DateTimeFormat>();

/** What a clock in `timeZone` shows at `date`. */
export function wallTimeIn(date: Date, timeZone: string): WallTime {
  let f = partsFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partsFormatters.set(timeZone, f);
  }
  const get = (type: Intl.DateTimeFormatPartTypes) =>
    Number(f.formatToParts(date).find((p) => p.type === type)?.value ?? 0);
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour') % 24,
    minute: get('minute'),
    second: get('second'),
  };
}

const CALENDAR_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A value of an export as the screen shows it (issue 27 item 7): a calendar day ('2026-11-23') in the
 * date format, never moved by a zone; an instant in the zone with the date and time formats. Empty
 * stays empty; an unreadable value is given as it is.
 */
export function formatForDisplay(
  value: string | null | undefined,
  display: { timeZone: string; dateFormat: string; timeFormat: string },
): string {
  if (!value) return '';
  const day = CALENDAR_DAY.exec(value);
  if (day)
    return formatWall(
      { year: Number(day[1]), month: Number(day[2]), day: Number(day[3]), hour: 0, minute: 0, second: 0 },
      display.dateFormat,
    );
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return formatWall(wallTimeIn(date, display.timeZone), `${display.dateFormat}, ${display.timeFormat}`);
}
