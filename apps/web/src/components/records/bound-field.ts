import type { ReactNode } from 'react';
import { type FieldPath, type FieldValues, type UseFormReturn, useController } from 'react-hook-form';

/*
 * What every input bound to a react-hook-form field shares (form-fields.tsx, money-field.tsx): the ref
 * (so a server error can focus the field), name, blur, error message and `data-testid="field-<name>"`,
 * with the full path for nested fields (`field-containers.0.number`). Each input adds its own value and
 * change, which differ by the value's type.
 */

export interface BoundProps<T extends FieldValues> {
  form: UseFormReturn<T>;
  name: FieldPath<T>;
  /** Extra text under the input when there is no error (hints, live checks). */
  hint?: ReactNode;
}

export const testIdOf = (name: string) => `field-${name}`;

export function useBoundField<T extends FieldValues>(form: UseFormReturn<T>, name: FieldPath<T>) {
  const { field, fieldState } = useController({ control: form.control, name });
  return {
    field,
    fieldState,
    /** Spread after the caller's props: these must win. */
    bound: {
      ref: field.ref,
      name: field.name,
      onBlur: field.onBlur,
      error: fieldState.error?.message,
      'data-testid': testIdOf(name),
    },
  };
}
