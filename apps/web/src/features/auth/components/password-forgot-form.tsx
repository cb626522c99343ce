import { pwdLinkRequestSchema } from '@fvg/contracts';
import { Alert, Text } from '@mantine/core';
import { usePasswordLinkMutation } from '../api/auth-api.ts';
import { AuthForm, AuthInput, useAuthForm } from './auth-form.tsx';

/** Asks for a reset link; afterwards shows the server's neutral answer in place of the form. */
export function PasswordForgotForm() {
  const mutation = usePasswordLinkMutation();
  const { form, onSubmit } = useAuthForm(pwdLinkRequestSchema, { email: '' }, ['email'], async (values) => {
    await mutation.mutateAsync(values);
  });

  if (mutation.isSuccess) {
    return (
      <Alert color="teal" variant="light" role="status" data-testid="password-forgot-sent">
        {mutation.data.message}
      </Alert>
    );
  }

  return (
    <AuthForm
      form={form}
      onSubmit={onSubmit}
      label="Request a password reset link"
      id="password-forgot"
      submitLabel="Send me a link"
      intro={
        <Text size="sm" c="dimmed">
          Enter the email address of your account. We will send you a link to choose a new password.
        </Text>
      }
    >
      <AuthInput
        form={form}
        name="email"
        label="Email"
        type="email"
        autoComplete="email"
        data-testid="password-forgot-email"
      />
    </AuthForm>
  );
}
