import {
  Checkbox,
  Fieldset,
  Group,
  MultiSelect,
  type MultiSelectProps,
  Select,
  type SelectProps,
  SimpleGrid,
  type SimpleGridProps,
  Switch,
  TagsInput,
  type TagsInputProps,
  Textarea,
  type TextareaProps,
  TextInput,
  type TextInputProps,
} from '@mantine/core';
import { type FocusEvent, type ReactNode, useState } from 'react';
import type { FieldValues } from 'react-hook-form';
import { type BoundProps, testIdOf, useBoundField } from './bound-field.ts';
import {
  DateTimeValueInput,
  type DateTimeValueInputProps,
  DateValueInput,
  type DateValueInputProps,
} from './date-inputs.tsx';
import {
  type LookupOption,
  type LookupSource,
  RecordSelect,
  type RecordSelectProps,
} from './record-select.tsx';

/*
 * Mantine inputs bound to a react-hook-form field: value, change, blur, error message and the ref
 * (so a server error can focus the field); the shared part is useBoundField (bound-field.ts).
 */

/**
 * A hint goes under its input, where its error would be: above it, a field with a hint sat lower than
 * its neighbours in a row (issue 27 item 5: the EORI's help text pushed its input out of line).
 */
export const HINT_BELOW = ['label', 'input', 'description', 'error'] as (
  | 'label'
  | 'input'
  | 'description'
  | 'error'
)[];

export function TextField<T extends FieldValues>({
  form,
  name,
  hint,
  transform,
  format,
  ...props
}: BoundProps<T> &
  Omit<TextInputProps, 'name' | 'value' | 'onChange' | 'error' | 'form'> & {
    /** Applied on every change, e.g. upper case for codes. */
    transform?: (value: string) => string;
    /** How the value reads while not being edited ('84713000' → '8471 30 00'); focused, the plain value. */
    format?: (value: string) => string;
  }) {
  const { field, fieldState, bound } = useBoundField(form, name);
  const [editing, setEditing] = useState(false);
  const value = (field.value as string | null | undefined) ?? '';
  return (
    <TextInput
      {...props}
      {...bound}
      value={format && !editing && value !== '' ? format(value) : value}
      onChange={(event) => {
        const value = event.currentTarget.value;
        field.onChange(transform ? transform(value) : value);
      }}
      {...(format
        ? {
            onFocus: (event: FocusEvent<HTMLInputElement>) => {
              setEditing(true);
              props.onFocus?.(event);
            },
            onBlur: () => {
              setEditing(false);
              bound.onBlur();
            },
          }
        : {})}
      description={props.description ?? (fieldState.error ? undefined : hint)}
      inputWrapperOrder={props.inputWrapperOrder ?? HINT_BELOW}
    />
  );
}

export function TextareaField<T extends FieldValues>({
  form,
  name,
  ...props
}: BoundProps<T> & Omit<TextareaProps, 'name' | 'value' | 'onChange' | 'error' | 'form'>) {
  const { field, bound } = useBoundField(form, name);
  return (
    <Textarea
      autosize
      minRows={2}
      {...props}
      {...bound}
      value={(field.value as string | null | undefined) ?? ''}
      onChange={(event) => field.onChange(event.currentTarget.value)}
    />
  );
}

export function SelectField<T extends FieldValues>({
  form,
  name,
  ...props
}: BoundProps<T> & Omit<SelectProps, 'name' | 'value' | 'onChange' | 'error' | 'form'>) {
  const { field, bound } = useBoundField(form, name);
  return (
    <Select
      comboboxProps={{ withinPortal: true }}
      {...props}
      {...bound}
      value={(field.value as string | null | undefined) || null}
      onChange={(value) => field.onChange(value ?? '')}
    />
  );
}

export function MultiSelectField<T extends FieldValues>({
  form,
  name,
  ...props
}: BoundProps<T> & Omit<MultiSelectProps, 'name' | 'value' | 'onChange' | 'error' | 'form'>) {
  const { field, bound } = useBoundField(form, name);
  return (
    <MultiSelect
      comboboxProps={{ withinPortal: true }}
      {...props}
      {...bound}
      value={(field.value as string[] | undefined) ?? []}
      onChange={field.onChange}
    />
  );
}

/**
 * A few known values to tick (a dossier's containers for its leg): every choice visible at once, no
 * dropdown to open. The value is the ticked values, in the order of `options`.
 */
export function ChecklistField<T extends FieldValues>({
  form,
  name,
  label,
  description,
  options,
}: BoundProps<T> & { label: ReactNode; description?: ReactNode; options: readonly LookupOption[] }) {
  const { field, fieldState } = useBoundField(form, name);
  const value = (field.value as string[] | undefined) ?? [];
  return (
    <Checkbox.Group
      label={label}
      description={description}
      value={value}
      onChange={(next) => field.onChange(options.map((o) => o.value).filter((v) => next.includes(v)))}
      error={fieldState.error?.message}
      data-testid={testIdOf(name)}
    >
      <Group gap="md" mt={6}>
        {options.map((o, i) => (
          // The first box takes the ref, so a server error on the field focuses it.
          <Checkbox
            key={o.value}
            ref={i === 0 ? field.ref : undefined}
            value={o.value}
            label={o.label}
            onBlur={field.onBlur}
          />
        ))}
      </Group>
    </Checkbox.Group>
  );
}

export function TagsField<T extends FieldValues>({
  form,
  name,
  ...props
}: BoundProps<T> & Omit<TagsInputProps, 'name' | 'value' | 'onChange' | 'error' | 'form'>) {
  const { field, fieldState, bound } = useBoundField(form, name);
  const error = fieldState.error;
  // An error on one tag (`seals.1`) arrives as an array of errors.
  const message =
    error?.message ??
    (Array.isArray(error)
      ? (error as ({ message?: string } | undefined)[]).find((e) => e?.message)?.message
      : undefined);
  return (
    <TagsInput
      {...props}
      {...bound}
      value={(field.value as string[] | undefined) ?? []}
      onChange={field.onChange}
      error={message}
    />
  );
}

/** A calendar date as the API takes it: 'YYYY-MM-DD' ('' when empty); typed ('23 Nov 2026', '2026-11-23') or picked. */
export function DateField<T extends FieldValues>({
  form,
  name,
  hint,
  ...props
}: BoundProps<T> & Omit<DateValueInputProps, 'name' | 'value' | 'onChange' | 'error' | 'form'>) {
  const { field, fieldState, bound } = useBoundField(form, name);
  return (
    <DateValueInput
      {...props}
      {...bound}
      value={(field.value as string | null | undefined) || null}
      onChange={(value) => field.onChange(value ?? '')}
      description={props.description ?? (fieldState.error ? undefined : hint)}
      inputWrapperOrder={props.inputWrapperOrder ?? HINT_BELOW}
    />
  );
}

/**
 * A moment as the API takes it: ISO 8601 with the preferred zone's offset ('' when empty); the date
 * typed or picked, the time typed (24 h).
 */
export function DateTimeField<T extends FieldValues>({
  form,
  name,
  hint,
  ...props
}: BoundProps<T> &
  Omit<DateTimeValueInputProps, 'name' | 'value' | 'onChange' | 'onBlur' | 'error' | 'ref'>) {
  const { field, bound } = useBoundField(form, name);
  return (
    <DateTimeValueInput
      {...props}
      {...bound}
      value={(field.value as string | null | undefined) || null}
      onChange={(value) => field.onChange(value ?? '')}
      description={props.description ?? hint}
    />
  );
}

export function LookupField<T extends FieldValues>({
  form,
  name,
  source,
  knownOption,
  ...props
}: BoundProps<T> &
  Omit<RecordSelectProps, 'name' | 'value' | 'onChange' | 'error' | 'form' | 'source' | 'knownOption'> & {
    source: LookupSource;
    knownOption?: LookupOption | null | undefined;
  }) {
  const { field, bound } = useBoundField(form, name);
  return (
    <RecordSelect
      {...props}
      source={source}
      knownOption={knownOption}
      {...bound}
      value={(field.value as string | null | undefined) || null}
      onChange={(value) => field.onChange(value ?? '')}
    />
  );
}

export function SwitchField<T extends FieldValues>({
  form,
  name,
  label,
  description,
  variant = 'switch',
}: BoundProps<T> & { label: ReactNode; description?: ReactNode; variant?: 'switch' | 'checkbox' }) {
  const { field } = useBoundField(form, name);
  const Component = variant === 'switch' ? Switch : Checkbox;
  return (
    <Component
      ref={field.ref}
      name={field.name}
      label={label}
      description={description}
      checked={Boolean(field.value)}
      onChange={(event) => field.onChange(event.currentTarget.checked)}
      onBlur={field.onBlur}
      data-testid={testIdOf(name)}
    />
  );
}

/** A titled group of fields in a grid (one column on a phone, `cols` from there). */
export function FormSection({
  legend,
  cols = { base: 1, sm: 2 },
  children,
}: {
  legend: ReactNode;
  cols?: SimpleGridProps['cols'];
  children: ReactNode;
}) {
  return (
    <Fieldset legend={legend}>
      <SimpleGrid cols={cols} spacing="sm">
        {children}
      </SimpleGrid>
    </Fieldset>
  );
}

/** Who a record is for: a customer picked from the parties (required). */
export function CustomerField<T extends FieldValues>(
  props: BoundProps<T> &
    Omit<RecordSelectProps, 'name' | 'value' | 'onChange' | 'error' | 'form' | 'source' | 'knownOption'> & {
      source: LookupSource;
      knownOption?: LookupOption | null | undefined;
    },
) {
  return <LookupField placeholder="Search customers" required {...props} />;
}

/** The dossier a record belongs to, when it belongs to one: picked, or cleared ("None"). */
export function DossierLinkField<T extends FieldValues>(
  props: BoundProps<T> &
    Omit<RecordSelectProps, 'name' | 'value' | 'onChange' | 'error' | 'form' | 'source' | 'knownOption'> & {
      source: LookupSource;
    },
) {
  return <LookupField placeholder="None" clearable {...props} />;
}
