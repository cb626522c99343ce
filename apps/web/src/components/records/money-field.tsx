import { minorUnitsOf } from '@fvg/contracts';
import { Text, TextInput, type TextInputProps } from '@mantine/core';
import { type ReactNode, type Ref, useEffect, useRef, useState } from 'react';
import type { FieldValues } from 'react-hook-form';
import { formatNumber } from '../../lib/format.ts';
import { editableDecimal, parseDecimalInput, useNumberFormat } from '../../lib/number-format.ts';
import { type BoundProps, useBoundField } from './bound-field.ts';

/*
 * Amounts and quantities typed the way people write them ('2,450.00', '2450', '2 450,00' with a
 * decimal comma preference), handed to the form as the exact decimal string the API takes ('2450.00'),
 * never a JS number. Not focused, the input shows the value grouped with the currency's decimals
 * ('2,450.00'); focused, the plain text to edit ('2450.00'). Something that is not a number stays as
 * typed with a sentence saying how to write it, and the form receives a value its contract refuses, so
 * it cannot be saved.
 */

const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

/** What the form gets for text that does not read as a number: never something a decimal schema takes. */
function unreadable(text: string): string {
  return PLAIN_DECIMAL.test(text.trim()) ? `${text} ?` : text;
}

export interface DecimalInputProps
  extends Omit<TextInputProps, 'value' | 'onChange' | 'onBlur' | 'defaultValue' | 'error'> {
  /** The exact decimal string ('' when empty), or the text last typed when it did not read. */
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  /** At most this many decimals. */
  decimals: number;
  /** Pads to `decimals` (amounts) instead of keeping the decimals typed (quantities, rates). */
  pad?: boolean;
  /** Whose decimals, for the message ('JPY amounts have no decimals'). */
  unit?: string;
  /** An error from the form or the server; a reading problem of the input itself comes first. */
  error?: ReactNode;
  ref?: Ref<HTMLInputElement>;
}

/** The shared core of amounts and quantities: reads with the user's separators, shows them grouped. */
export function DecimalInput({
  value,
  onChange,
  onBlur,
  decimals,
  pad = false,
  unit,
  error,
  ref,
  onFocus,
  ...props
}: DecimalInputProps) {
  const preference = useNumberFormat();
  const [focused, setFocused] = useState(false);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // A reading problem is said once the field has been left with it (not while '2,45' is on its way to
  // '2,450'), and from then on while it lasts, the field focused again or not.
  const [revealed, setRevealed] = useState(false);
  // A value that did not come from this input (a reset, a reload) drops a reading problem left over.
  const emitted = useRef(value);
  useEffect(() => {
    if (value !== emitted.current) {
      emitted.current = value;
      setProblem(null);
      setRevealed(false);
    }
  }, [value]);

  const emit = (next: string) => {
    emitted.current = next;
    onChange(next);
  };

  const shown = focused || problem !== null ? text : displayOf(value, decimals, pad, preference);

  return (
    <TextInput
      inputMode="decimal"
      autoComplete="off"
      {...props}
      ref={ref}
      value={shown}
      onFocus={(event) => {
        if (problem === null) {
          const input = event.currentTarget;
          const editable = PLAIN_DECIMAL.test(value) ? editableDecimal(value, preference) : value;
          // Swapped in the DOM at once, not on the next render, and selected whole: focus by Tab, by a
          // failed save or by a script that types next all replace the amount (a click still places
          // the caret where it lands, after this).
          if (input.value !== editable) {
            input.value = editable;
            input.select();
          }
          setText(editable);
        }
        setFocused(true);
        onFocus?.(event);
      }}
      onChange={(event) => {
        const typed = event.currentTarget.value;
        setText(typed);
        const read = parseDecimalInput(typed, {
          decimals,
          pad,
          preference,
          ...(unit ? { unit } : {}),
        });
        if (read.ok) {
          setProblem(null);
          setRevealed(false);
          emit(read.value);
        } else {
          setProblem(read.message);
          emit(unreadable(typed));
        }
      }}
      onBlur={() => {
        setFocused(false);
        if (problem !== null) setRevealed(true);
        onBlur?.();
      }}
      // The form's own message for the raw text ('Enter a number…') would only repeat it less plainly.
      error={problem !== null ? (revealed || !focused ? problem : undefined) : error}
    />
  );
}

/** The value grouped, with at least the currency's decimals and never fewer than it holds. */
function displayOf(
  value: string,
  decimals: number,
  pad: boolean,
  preference: ReturnType<typeof useNumberFormat>,
): string {
  if (!PLAIN_DECIMAL.test(value)) return value;
  const held = value.split('.')[1]?.length ?? 0;
  return formatNumber(
    value as `${number}`,
    // Amounts show their currency's decimals; quantities and rates what they hold (1.000000 → 1).
    {
      minimumFractionDigits: pad ? Math.max(held, decimals) : 0,
      maximumFractionDigits: Math.max(held, decimals),
    },
    preference,
  );
}

export interface MoneyInputProps extends Omit<DecimalInputProps, 'decimals' | 'pad' | 'unit'> {
  /** ISO 4217 code: its decimals (JPY 0, EUR 2, BHD 3) apply. */
  currency: string;
  /** The column's scale when it holds fewer decimals than the currency (charges: 2). */
  maxDecimals?: number;
  /** Shows the currency code inside the input (off in a table whose currency has its own column). */
  showCurrency?: boolean;
}

/** A bare amount input (table cells, filters): value and onChange carry the exact decimal string. */
export function MoneyInput({ currency, maxDecimals, showCurrency = false, ...props }: MoneyInputProps) {
  const code = (currency ?? '').trim().toUpperCase();
  const units = minorUnitsOf(code);
  const decimals = maxDecimals === undefined ? units : Math.min(units, maxDecimals);
  return (
    <DecimalInput
      styles={{ input: { textAlign: 'right' } }}
      {...(showCurrency && /^[A-Z]{3}$/.test(code)
        ? {
            leftSection: (
              <Text size="xs" c="dimmed">
                {code}
              </Text>
            ),
            leftSectionWidth: 44,
          }
        : {})}
      {...props}
      decimals={decimals}
      pad
      {...(/^[A-Z]{3}$/.test(code) ? { unit: code } : {})}
    />
  );
}

/** An amount bound to a react-hook-form field (`data-testid="field-<name>"`, like form-fields.tsx). */
export function MoneyField<T extends FieldValues>({
  form,
  name,
  showCurrency = true,
  ...props
}: Omit<BoundProps<T>, 'hint'> &
  Omit<MoneyInputProps, 'value' | 'onChange' | 'onBlur' | 'error' | 'ref' | 'form'>) {
  const { field, bound } = useBoundField(form, name);
  return (
    <MoneyInput
      {...props}
      showCurrency={showCurrency}
      {...bound}
      value={(field.value as string | null | undefined) ?? ''}
      onChange={field.onChange}
    />
  );
}

/** A quantity or rate bound to a form field: the user's separators, up to `decimals`, kept as typed. */
export function DecimalField<T extends FieldValues>({
  form,
  name,
  ...props
}: Omit<BoundProps<T>, 'hint'> &
  Omit<DecimalInputProps, 'value' | 'onChange' | 'onBlur' | 'error' | 'ref' | 'form'>) {
  const { field, bound } = useBoundField(form, name);
  return (
    <DecimalInput
      styles={{ input: { textAlign: 'right' } }}
      {...props}
      {...bound}
      value={(field.value as string | null | undefined) ?? ''}
      onChange={field.onChange}
    />
  );
}
