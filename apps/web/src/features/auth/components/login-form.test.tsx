import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { LoginForm } from './login-form.tsx';

function problemResponse(status: number, body: object, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ type: 'about:blank', status, ...body }), {
    status,
    headers: { 'content-type': 'application/problem+json', ...headers },
  });
}

function fillAndSubmit(email: string, password: string) {
  fireEvent.change(screen.getByTestId('login-email'), { target: { value: email } });
  fireEvent.change(screen.getByTestId('login-password'), { target: { value: password } });
  fireEvent.click(screen.getByTestId('login-submit'));
}

describe('LoginForm', () => {
  it('shows a server field error on the email field', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        problemResponse(400, {
          title: 'Bad request',
          detail: 'The request is not valid',
          errors: [{ field: 'email', message: 'This address cannot sign in here' }],
        }),
      ),
    );
    const onSignedIn = vi.fn();
    renderWithProviders(<LoginForm onSignedIn={onSignedIn} />);

    fillAndSubmit('ann@example.com', 'a-password');

    const message = await screen.findByText('This address cannot sign in here');
    const email = screen.getByTestId('login-email');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(email.getAttribute('aria-describedby')).toContain(message.id);
    expect(screen.queryByTestId('login-error')).toBeNull();
    expect(onSignedIn).not.toHaveBeenCalled();
  });

  it("shows the server's message for 401", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => problemResponse(401, { title: 'Unauthorized', detail: 'Wrong email or password' })),
    );
    renderWithProviders(<LoginForm onSignedIn={vi.fn()} />);
    fillAndSubmit('ann@example.com', 'a-password');
    expect((await screen.findByTestId('login-error')).textContent).toBe('Wrong email or password');
  });

  it('says how long to wait after too many attempts', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => problemResponse(429, { title: 'Too many requests' }, { 'retry-after': '30' })),
    );
    renderWithProviders(<LoginForm onSignedIn={vi.fn()} />);
    fillAndSubmit('ann@example.com', 'a-password');
    expect((await screen.findByTestId('login-error')).textContent).toBe(
      'Too many attempts, try again in 30 s.',
    );
  });

  it('validates before calling the server', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<LoginForm onSignedIn={vi.fn()} />);
    fillAndSubmit('not-an-email', '');
    expect(await screen.findByText('Enter a valid email address')).toBeTruthy();
    expect(screen.getByText('Enter your password')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('stores the token and reports success', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response('{"Token":"tok-9"}', { status: 200, headers: { 'content-type': 'application/json' } }),
      ),
    );
    const onSignedIn = vi.fn();
    renderWithProviders(<LoginForm onSignedIn={onSignedIn} />);
    fillAndSubmit('  Ann@Example.com ', 'a-password');
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith('tok-9'));
    expect(localStorage.getItem('bearerToken')).toBe('tok-9');
  });
});
