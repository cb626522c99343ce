import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { isApiError, problemMessage } from './api-client.ts';
import { fieldMessage, labelFor, normalizeFieldPath, problemIssue } from './field-messages.ts';

export { normalizeFieldPath };

/** Where messages that belong to no field go: read it as `formState.errors.root?.server?.message`. */
export const SERVER_ERROR_KEY = 'root.server' as const;

export interface ApplyProblemOptions<T extends FieldValues> {
  /** The form's fields; problem errors naming another field are shown as the form-level message. */
  fields: readonly FieldPath<T>[];
  /** Maps a server field path onto a form field when they are spelled differently. */
  rename?: Partial<Record<string, FieldPath<T>>>;
  /** The form's labels by field path; the problem's field errors are worded with them. */
  labels?: Readonly<Record<string, string>>;
  /** Overrides the form-level message (e.g. a friendlier sentence for one status). */
  message?: (error: unknown) => string | undefined;
}

export interface ApplyProblemResult {
  /** How many problem errors landed on a field. */
  mapped: number;
  /** The form-level message that was set, if any. */
  message: string | undefined;
}

/**
 * Puts a failed call's problem onto a react-hook-form form: each `problem.errors[]` entry naming a
 * known field becomes that field's error (the first one is focused), everything else becomes the
 * form-level message under SERVER_ERROR_KEY. Works for any error: non-API errors give a generic message.
 */
export function applyProblemToForm<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  options: ApplyProblemOptions<T>,
): ApplyProblemResult {
  const known = new Set<string>(options.fields);
  const leftover: string[] = [];
  let mapped = 0;

  if (isApiError(error)) {
    for (const fieldError of error.fieldErrors) {
      const path = normalizeFieldPath(fieldError.field);
      const target = options.rename?.[path] ?? path;
      const message = fieldMessage(problemIssue(fieldError), labelFor(target, options.labels));
      if (known.has(target)) {
        setError(target as FieldPath<T>, { type: 'server', message }, { shouldFocus: mapped === 0 });
        mapped += 1;
      } else {
        leftover.push(message);
      }
    }
  }

  let message: string | undefined = options.message?.(error);
  if (message === undefined && (mapped === 0 || leftover.length > 0)) {
    message = mapped === 0 ? problemMessage(error) : leftover.join(' ');
  }
  if (message !== undefined) setError(SERVER_ERROR_KEY, { type: 'server', message });
  return { mapped, message };
}
