import { Group, Input } from '@mantine/core';
import { DateInput, type DateInputProps, TimePicker } from '@mantine/dates';
import { type FocusEvent, type ReactNode, type Ref, useEffect, useId, useRef, useState } from 'react';
import { displayPreferences } from '../../lib/display-preferences.ts';
import { formatDate, formatDateTime, isoToWall, parseTypedDate, wallToIso } from '../../lib/format-date.ts';
import { t as translate, useT } from '../../lib/i18n.ts';

/*
 * The app's one date input and one date-time input (Mantine dates): typed or picked, clearable,
 * shown in the display preference's format ('23 Nov 2026', '14:05'), with min/max. Values are what
 * the API takes: a calendar date 'YYYY-MM-DD', an instant as ISO 8601 with the preferred zone's
 * offset ('2026-03-29T14:05:00+02:00'). form-fields.tsx binds them to react-hook-form; the planning
 * board uses the date-time one directly.
 */

/** Mantine's calendar speaks 'YYYY-MM-DD HH:mm:ss' wall times; ours are the preferred zone's. */
const dayOf = (wall: string | null) => (wall ? wall.slice(0, 10) : null);

export interface DateValueInputProps
  extends Omit<DateInputProps, 'value' | 'onChange' | 'minDate' | 'maxDate' | 'valueFormat' | 'dateParser'> {
  value: string | null;
  onChange: (value: string | null) => void;
  /** Earliest day allowed, 'YYYY-MM-DD'. */
  min?: string | undefined;
  /** Latest day allowed, 'YYYY-MM-DD'. */
  max?: string | undefined;
  ref?: Ref<HTMLInputElement>;
}

/** A calendar date: '23 Nov 2026' on screen, 'YYYY-MM-DD' as value, null when empty. */
export function DateValueInput({
  value,
  onChange,
  min,
  max,
  error,
  onBlur,
  popoverProps,
  ...props
}: DateValueInputProps) {
  const [rangeError, setRangeError] = useState<string | undefined>();
  // Said on the input: a dialog then leaves Escape to the open calendar (record-modal.tsx).
  const [open, setOpen] = useState(false);
  const parse = (text: string) => {
    const day = parseTypedDate(text);
    setRangeError(day ? outOfRange(day, min, max, formatDate) : undefined);
    return day;
  };
  return (
    <DateInput
      clearable
      placeholder={displayPreferences().dateFormat.replace(/\[[^\]]*]/g, '')}
      {...props}
      valueFormat={displayPreferences().dateFormat}
      dateParser={parse}
      minDate={min}
      maxDate={max}
      value={value || null}
      // Leaves text out of range on screen with its message, rather than silently putting back the old day.
      fixOnBlur={!rangeError}
      onChange={(next) => {
        setRangeError(undefined);
        onChange(next ? String(next).slice(0, 10) : null);
      }}
      onBlur={onBlur}
      error={error || rangeError}
      // A text input with a calendar that pops up: the ARIA combobox pattern, which is what allows it to
      // say whether the calendar is open (axe aria-allowed-attr; a textbox may not carry aria-expanded).
      role="combobox"
      aria-haspopup="dialog"
      aria-expanded={open}
      popoverProps={{
        ...popoverProps,
        onOpen: () => {
          setOpen(true);
          popoverProps?.onOpen?.();
        },
        onClose: () => {
          setOpen(false);
          popoverProps?.onClose?.();
        },
      }}
    />
  );
}

/** 'Enter a date on or after 1 Nov 2026' when `value` lies outside [min, max], else undefined. */
function outOfRange(
  value: string,
  min: string | undefined,
  max: string | undefined,
  format: (v: string) => string,
  kind: 'date' | 'time' = 'date',
): string | undefined {
  const at = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
  const bound = (b: string) => Date.parse(b.length === 10 ? `${b}T00:00:00Z` : b);
  if (min && at < bound(min)) return translate(`records:dates.${kind}.after`, { bound: format(min) });
  if (max && at > bound(max)) return translate(`records:dates.${kind}.before`, { bound: format(max) });
  return undefined;
}

export interface DateTimeValueInputProps {
  value: string | null;
  onChange: (value: string | null) => void;
  /** Fired when the focus leaves both parts (not when it moves from the date to the time). */
  onBlur?: () => void;
  label?: ReactNode;
  description?: ReactNode;
  error?: ReactNode;
  required?: boolean;
  disabled?: boolean;
  readOnly?: boolean;
  size?: 'xs' | 'sm' | 'md';
  name?: string;
  /** Earliest instant allowed (ISO 8601). */
  min?: string | undefined;
  /** Latest instant allowed (ISO 8601). */
  max?: string | undefined;
  /** The time put in when a day is picked and no time is given yet, 'HH:mm'. */
  defaultTime?: string;
  /** Names the parts for screen readers: '<label> date', '<label> time'. */
  ariaLabel?: string;
  ref?: Ref<HTMLInputElement>;
  'data-testid'?: string;
  onKeyDown?: (event: React.KeyboardEvent) => void;
}

/**
 * A moment: a date typed or picked ('23 Nov 2026') and a time typed ('14:05', 24 h) in the preferred
 * zone; the value is ISO 8601 with that zone's offset on that day, so a leg on the night summer time
 * starts keeps the hour the user typed. Null when empty; the day alone (no time yet) stays on screen.
 */
export function DateTimeValueInput({
  value,
  onChange,
  onBlur,
  label,
  description,
  error,
  required,
  disabled,
  readOnly,
  size = 'sm',
  name,
  min,
  max,
  defaultTime = '00:00',
  ariaLabel,
  ref,
  onKeyDown,
  'data-testid': testId,
}: DateTimeValueInputProps) {
  const t = useT('records');
  const { timeZone } = displayPreferences();
  const wall = isoToWall(value, timeZone);
  const [day, setDay] = useState<string | null>(dayOf(wall));
  const [time, setTime] = useState<string>(wall ? wall.slice(11, 16) : '');
  const [rangeError, setRangeError] = useState<string | undefined>();
  const emitted = useRef(value);
  const box = useRef<HTMLDivElement>(null);
  const id = useId();

  // A value set from outside (reset, reload, another user's change) replaces what is on screen.
  useEffect(() => {
    if (value === emitted.current) return;
    emitted.current = value;
    const next = isoToWall(value, timeZone);
    setDay(dayOf(next));
    setTime(next ? next.slice(11, 16) : '');
    setRangeError(undefined);
  }, [value, timeZone]);

  const emit = (nextDay: string | null, nextTime: string) => {
    setDay(nextDay);
    setTime(nextTime);
    if (!nextDay) {
      setRangeError(undefined);
      emitted.current = null;
      onChange(null);
      return;
    }
    if (!nextTime) return;
    const iso = wallToIso(`${nextDay} ${nextTime.slice(0, 5)}`, timeZone);
    if (!iso) return;
    const problem = outOfRange(iso, min, max, formatDateTime, 'time');
    setRangeError(problem);
    if (problem) return;
    emitted.current = iso;
    onChange(iso);
  };

  const leave = (event: FocusEvent) => {
    const next = event.relatedTarget as Node | null;
    if (next && box.current?.contains(next)) return;
    onBlur?.();
  };

  const named = ariaLabel ?? (typeof label === 'string' ? label : t('dates.dateAndTime'));
  const shown = error || rangeError;
  return (
    <Input.Wrapper
      id={id}
      label={label}
      description={shown ? undefined : description}
      error={shown}
      required={required}
      size={size}
      data-testid={testId}
    >
      <Group gap={6} wrap="nowrap" ref={box} onBlur={leave} onKeyDown={onKeyDown}>
        <DateValueInput
          id={id}
          aria-describedby={shown ? `${id}-error` : description ? `${id}-description` : undefined}
          ref={ref}
          name={name}
          size={size}
          value={day}
          onChange={(nextDay) => emit(nextDay, nextDay ? time || defaultTime : '')}
          min={min ? (dayOf(isoToWall(min, timeZone)) ?? undefined) : undefined}
          max={max ? (dayOf(isoToWall(max, timeZone)) ?? undefined) : undefined}
          disabled={disabled}
          readOnly={readOnly}
          error={Boolean(shown)}
          aria-label={t('dates.partDate', { named })}
          style={{ flex: 1, minWidth: 0 }}
          data-testid={testId ? `${testId}-date` : undefined}
        />
        <TimePicker
          format={displayPreferences().timeFormat.startsWith('h') ? '12h' : '24h'}
          size={size}
          value={time}
          onChange={(nextTime) => emit(day, nextTime)}
          disabled={disabled || !day}
          readOnly={readOnly}
          error={Boolean(shown)}
          hoursInputLabel={t('dates.partHours', { named })}
          minutesInputLabel={t('dates.partMinutes', { named })}
          w={size === 'xs' ? 72 : 84}
          data-testid={testId ? `${testId}-time` : undefined}
        />
      </Group>
    </Input.Wrapper>
  );
}

export interface DateRangeInputProps {
  label: ReactNode;
  /** 'YYYY-MM-DD' or null for an open end. */
  from: string | null;
  to: string | null;
  onChange: (from: string | null, to: string | null) => void;
  /** Width of each of the two inputs, px. */
  partWidth?: number;
  'data-testid'?: string;
}

/** Two days, from and to (either may stay open), each typed or picked; the one cannot pass the other. */
export function DateRangeInput({
  label,
  from,
  to,
  onChange,
  partWidth = 136,
  'data-testid': testId,
}: DateRangeInputProps) {
  const t = useT('records');
  const named = typeof label === 'string' ? label : t('dates.dates');
  return (
    <Input.Wrapper label={label} data-testid={testId}>
      <Group gap={4} wrap="nowrap">
        <DateValueInput
          aria-label={t('dates.partFrom', { named })}
          placeholder={t('filters.from')}
          value={from}
          max={to ?? undefined}
          onChange={(next) => onChange(next, to)}
          w={partWidth}
          data-testid={testId ? `${testId}-from` : undefined}
        />
        <span aria-hidden>–</span>
        <DateValueInput
          aria-label={t('dates.partTo', { named })}
          placeholder={t('filters.to')}
          value={to}
          min={from ?? undefined}
          onChange={(next) => onChange(from, next)}
          w={partWidth}
          data-testid={testId ? `${testId}-to` : undefined}
        />
      </Group>
    </Input.Wrapper>
  );
}
