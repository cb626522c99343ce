import { loginRequestSchema } from '@fvg/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { applyProblemToForm } from '../../../lib/form-errors.ts';
import { login } from '../../../lib/session.ts';

export interface LoginFormProps {
  /** Called once the token is stored. */
  onSignedIn: (token: string) => void;
}

/** Email and password; server field errors land on the fields, 401 and 429 show above the form. */
export function LoginForm({ onSignedIn }: LoginFormProps) {
  const queryClient = useQueryClient();
  const form = useForm({
    resolver: zodResolver(loginRequestSchema),
    defaultValues: { email: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      onSignedIn(await login(values.email, values.password, queryClient));
    } catch (error) {
      applyProblemToForm(error, form.setError, { fields: ['email', 'password'] });
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Sign in" data-testid="login-form">
      <Stack gap="md">
        {errors.root?.server?.message && (
          <Alert color="red" variant="light" role="alert" data-testid="login-error">
            {errors.root.server.message}
          </Alert>
        )}
        <TextInput
          {...form.register('email')}
          label="Email"
          type="email"
          autoComplete="username"
          required
          error={errors.email?.message}
          data-testid="login-email"
        />
        <PasswordInput
          {...form.register('password')}
          label="Password"
          autoComplete="current-password"
          required
          error={errors.password?.message}
          data-testid="login-password"
        />
        <Button type="submit" loading={isSubmitting} fullWidth data-testid="login-submit">
          Sign in
        </Button>
      </Stack>
    </form>
  );
}
