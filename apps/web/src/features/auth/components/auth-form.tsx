import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Button,
  PasswordInput,
  type PasswordInputProps,
  Stack,
  TextInput,
  type TextInputProps,
} from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import {
  type FieldPath,
  type FieldValues,
  type Resolver,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';
import { applyProblemToForm } from '../../../lib/form-errors.ts';

/*
 * The signed-out screens' forms (sign in, ask for a reset link, choose a new password): one column,
 * the server's sentence above the fields, one wide button. Their test ids share a prefix:
 * `<id>-form`, `<id>-error`, `<id>-submit`.
 */

/** The form with its zod schema; a failed `run` puts the server's problem on `fields` or above them. */
export function useAuthForm<T extends FieldValues>(
  schema: Parameters<typeof zodResolver>[0],
  defaultValues: T,
  fields: FieldPath<T>[],
  run: (values: T) => Promise<void>,
) {
  const form = useForm<T>({
    resolver: zodResolver(schema) as unknown as Resolver<T>,
    defaultValues: defaultValues as never,
  });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await run(values);
    } catch (error) {
      applyProblemToForm(error, form.setError, { fields });
    }
  });
  return { form, onSubmit };
}

/** A text or password input registered on the form, required, its error under it. */
export function AuthInput<T extends FieldValues>({
  form,
  name,
  password = false,
  ...props
}: { form: UseFormReturn<T>; name: FieldPath<T>; password?: boolean } & Omit<
  TextInputProps,
  'form' | 'name' | 'error'
>) {
  const message = form.formState.errors[name]?.message;
  const bound = {
    ...form.register(name),
    required: true,
    error: typeof message === 'string' ? message : undefined,
  };
  return password ? (
    <PasswordInput {...(props as PasswordInputProps)} {...bound} />
  ) : (
    <TextInput {...props} {...bound} />
  );
}

export interface AuthFormProps<T extends FieldValues> {
  form: UseFormReturn<T>;
  onSubmit: (event?: FormEvent) => Promise<void>;
  /** Accessible name of the form. */
  label: string;
  /** The test ids' prefix: `login` → login-form, login-error, login-submit. */
  id: string;
  submitLabel: string;
  /** Above everything (what the form is for). */
  intro?: ReactNode;
  /** Under a form-level error (a link to try another way). */
  afterError?: ReactNode;
  children: ReactNode;
}

export function AuthForm<T extends FieldValues>({
  form,
  onSubmit,
  label,
  id,
  submitLabel,
  intro,
  afterError,
  children,
}: AuthFormProps<T>) {
  const { errors, isSubmitting } = form.formState;
  const message = (errors.root as { server?: { message?: string } } | undefined)?.server?.message;
  const alert = message && (
    <Alert color="red" variant="light" role="alert" data-testid={`${id}-error`}>
      {message}
    </Alert>
  );
  return (
    <form onSubmit={onSubmit} noValidate aria-label={label} data-testid={`${id}-form`}>
      <Stack gap="md">
        {intro}
        {alert &&
          (afterError ? (
            <Stack gap="xs">
              {alert}
              {afterError}
            </Stack>
          ) : (
            alert
          ))}
        {children}
        <Button type="submit" loading={isSubmitting} fullWidth data-testid={`${id}-submit`}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
