import { useEffect, useRef } from 'react';
import { DateRangeInput as TypedDateRange } from './date-inputs.tsx';

export interface DateRangeFilterInputProps {
  label: string;
  from: string | null;
  to: string | null;
  onChange: (from: string | undefined, to: string | undefined) => void;
  testId: string;
  /** Take the focus when mounted (it replaces a stand-in that had it). */
  focusOnMount?: boolean;
  /** The stand-in was clicked before this loaded: the first day field takes the focus. */
  openOnMount?: boolean;
}

/**
 * A list's date-range filter: the app's one typed From–To pair (date-inputs.tsx, with
 * @mantine/dates and dayjs), loaded only when a user reaches for it — filter-bar.tsx shows a
 * look-alike stand-in until then (ADR 0023).
 */
export function DateRangeInput({
  label,
  from,
  to,
  onChange,
  testId,
  focusOnMount,
  openOnMount,
}: DateRangeFilterInputProps) {
  const ref = useRef<HTMLDivElement>(null);
  // Only what the stand-in asked for at mount time; later prop changes mean nothing.
  const mountRequest = useRef({ focusOnMount, openOnMount });
  useEffect(() => {
    const { focusOnMount: focus, openOnMount: open } = mountRequest.current;
    if (open || focus) ref.current?.querySelector('input')?.focus();
  }, []);

  return (
    <div ref={ref}>
      <TypedDateRange
        label={label}
        from={from}
        to={to}
        onChange={(start, end) => onChange(start ?? undefined, end ?? undefined)}
        data-testid={testId}
      />
    </div>
  );
}
