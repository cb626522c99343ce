import '@mantine/dates/styles.css';
import { DatePickerInput } from '@mantine/dates';
import { useEffect, useRef } from 'react';

export interface DateRangeInputProps {
  label: string;
  from: string | null;
  to: string | null;
  onChange: (from: string | undefined, to: string | undefined) => void;
  width: number;
  testId: string;
  /** Take the focus when mounted (it replaces a stand-in that had it). */
  focusOnMount?: boolean;
  /** Open the calendar when mounted (the stand-in was clicked before this loaded). */
  openOnMount?: boolean;
}

/**
 * A list's date-range filter: Mantine's range picker (with @mantine/dates and dayjs), loaded only
 * when a user reaches for it — filter-bar.tsx shows a look-alike stand-in until then (ADR 0023).
 */
export function DateRangeInput({
  label,
  from,
  to,
  onChange,
  width,
  testId,
  focusOnMount,
  openOnMount,
}: DateRangeInputProps) {
  const ref = useRef<HTMLButtonElement>(null);
  // Only what the stand-in asked for at mount time; later prop changes mean nothing.
  const mountRequest = useRef({ focusOnMount, openOnMount });
  useEffect(() => {
    const { focusOnMount: focus, openOnMount: open } = mountRequest.current;
    if (open) ref.current?.click();
    if (open || focus) ref.current?.focus();
  }, []);

  return (
    <DatePickerInput
      ref={ref}
      type="range"
      label={label}
      placeholder="Any dates"
      valueFormat="YYYY-MM-DD"
      value={[from, to]}
      onChange={([start, end]) =>
        onChange(start ? String(start).slice(0, 10) : undefined, end ? String(end).slice(0, 10) : undefined)
      }
      allowSingleDateInRange
      clearable
      w={width}
      data-testid={testId}
    />
  );
}
