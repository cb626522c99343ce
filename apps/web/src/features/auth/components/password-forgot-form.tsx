import { pwdLinkRequestSchema } from '@fvg/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { applyProblemToForm } from '../../../lib/form-errors.ts';
import { usePasswordLinkMutation } from '../api/auth-api.ts';

/** Asks for a reset link; afterwards shows the server's neutral answer in place of the form. */
export function PasswordForgotForm() {
  const mutation = usePasswordLinkMutation();
  const form = useForm({ resolver: zodResolver(pwdLinkRequestSchema), defaultValues: { email: '' } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await mutation.mutateAsync(values);
    } catch (error) {
      applyProblemToForm(error, form.setError, { fields: ['email'] });
    }
  });

  if (mutation.isSuccess) {
    return (
      <Alert color="teal" variant="light" role="status" data-testid="password-forgot-sent">
        {mutation.data.message}
      </Alert>
    );
  }

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Request a password reset link"
      data-testid="password-forgot-form"
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Enter the email address of your account. We will send you a link to choose a new password.
        </Text>
        {errors.root?.server?.message && (
          <Alert color="red" variant="light" role="alert" data-testid="password-forgot-error">
            {errors.root.server.message}
          </Alert>
        )}
        <TextInput
          {...form.register('email')}
          label="Email"
          type="email"
          autoComplete="email"
          required
          error={errors.email?.message}
          data-testid="password-forgot-email"
        />
        <Button type="submit" loading={isSubmitting} fullWidth data-testid="password-forgot-submit">
          Send me a link
        </Button>
      </Stack>
    </form>
  );
}
