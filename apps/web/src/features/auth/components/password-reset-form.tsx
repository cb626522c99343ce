import { newPasswordSchema, PASSWORD_MIN_LENGTH } from '@fvg/contracts';
import { Alert, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { z } from 'zod';
import { usePasswordResetMutation } from '../api/auth-api.ts';
import { AuthForm, AuthInput, useAuthForm } from './auth-form.tsx';

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
  const { form, onSubmit } = useAuthForm(
    resetFormSchema,
    { password: '', confirm: '' },
    ['password'],
    async (values) => {
      await mutation.mutateAsync({ token, password: values.password });
    },
  );

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
    <AuthForm
      form={form}
      onSubmit={onSubmit}
      label="Choose a new password"
      id="password-reset"
      submitLabel="Set the new password"
      afterError={afterError}
    >
      <AuthInput
        form={form}
        name="password"
        password
        label="New password"
        description={`At least ${PASSWORD_MIN_LENGTH} characters`}
        autoComplete="new-password"
        data-testid="password-reset-password"
      />
      <AuthInput
        form={form}
        name="confirm"
        password
        label="Repeat the new password"
        autoComplete="new-password"
        data-testid="password-reset-confirm"
      />
    </AuthForm>
  );
}
