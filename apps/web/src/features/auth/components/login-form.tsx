import { loginRequestSchema } from '@fvg/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { login } from '../../../lib/session.ts';
import { AuthForm, AuthInput, useAuthForm } from './auth-form.tsx';

export interface LoginFormProps {
  /** Called once the token is stored. */
  onSignedIn: (token: string) => void;
}

/** Email and password; server field errors land on the fields, 401 and 429 show above the form. */
export function LoginForm({ onSignedIn }: LoginFormProps) {
  const queryClient = useQueryClient();
  const { form, onSubmit } = useAuthForm(
    loginRequestSchema,
    { email: '', password: '' },
    ['email', 'password'],
    async (values) => onSignedIn(await login(values.email, values.password, queryClient)),
  );

  return (
    <AuthForm form={form} onSubmit={onSubmit} label="Sign in" id="login" submitLabel="Sign in">
      <AuthInput
        form={form}
        name="email"
        label="Email"
        type="email"
        autoComplete="username"
        data-testid="login-email"
      />
      <AuthInput
        form={form}
        name="password"
        password
        label="Password"
        autoComplete="current-password"
        data-testid="login-password"
      />
    </AuthForm>
  );
}
