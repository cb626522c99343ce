import { newPasswordSchema, PASSWORD_MIN_LENGTH } from '@fvg/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, PasswordInput, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { applyProblemToForm } from '../../../lib/form-errors.ts';
import { usePasswordResetMutation } from '../api/auth-api.ts';

const resetFormSchema = z
  .object({
    password: newPasswordSchema,
    confirm: z.string().min(1, 'Repeat the new password'),
  })
  .refine((values) => values.password === values.confirm, {
    path: ['confirm'],
    message: 'The two passwords are not the same',
  });

export interface PasswordResetFormProps {
  /** The single-use token of the mailed link. */
  token: string;
  /** Shown under the success message (a link to sign in). */
  afterSuccess?: ReactNode;
  /** Shown under a form-level error (a link to ask for a new link). */
  afterError?: ReactNode;
}

export function PasswordResetForm({ token, afterSuccess, afterError }: PasswordResetFormProps) {
  const mutation = usePasswordResetMutation();
  const form = useForm({
    resolver: zodResolver(resetFormSchema),
    defaultValues: { password: '', confirm: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await mutation.mutateAsync({ token, password: values.password });
    } catch (error) {
      applyProblemToForm(error, form.setError, { fields: ['password'] });
    }
  });

  if (mutation.isSuccess) {
    return (
      <Stack gap="md">
        <Alert color="teal" variant="light" role="status" data-testid="password-reset-done">
          {mutation.data.message}
        </Alert>
        {afterSuccess}
      </Stack>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Choose a new password" data-testid="password-reset-form">
      <Stack gap="md">
        {errors.root?.server?.message && (
          <Stack gap="xs">
            <Alert color="red" variant="light" role="alert" data-testid="password-reset-error">
              {errors.root.server.message}
            </Alert>
            {afterError}
          </Stack>
        )}
        <PasswordInput
          {...form.register('password')}
          label="New password"
          description={`At least ${PASSWORD_MIN_LENGTH} characters`}
          autoComplete="new-password"
          required
          error={errors.password?.message}
          data-testid="password-reset-password"
        />
        <PasswordInput
          {...form.register('confirm')}
          label="Repeat the new password"
          autoComplete="new-password"
          required
          error={errors.confirm?.message}
          data-testid="password-reset-confirm"
        />
        <Button type="submit" loading={isSubmitting} fullWidth data-testid="password-reset-submit">
          Set the new password
        </Button>
      </Stack>
    </form>
  );
}
