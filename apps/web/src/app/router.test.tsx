import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { setToken } from '../lib/session.ts';
import { FakeHubConnection } from '../test/fake-hub-connection.ts';
import { renderApp } from '../test/render-app.tsx';

const me = (cwAccess: boolean, role = 'staff') => ({
  id: 'u1',
  Email: 'ann@example.com',
  name: 'Ann Example',
  role,
  party: null,
  access: { cw_access: cwAccess },
});

function stubApi(meRecord: object | null) {
  const fetchMock = vi.fn(async (url: string) => {
    if (url === '/api/me' && meRecord) {
      return new Response(JSON.stringify(meRecord), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }
    return new Response(JSON.stringify({ type: 'about:blank', title: 'Unauthorized', status: 401 }), {
      status: 401,
      headers: { 'content-type': 'application/problem+json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

async function start(path: string, hubConnection = new FakeHubConnection({ autoStart: true })) {
  const { router } = await renderApp(path, { hubConnection });
  return router;
}

describe('app router', () => {
  it('shows the not-found page for any other path', async () => {
    stubApi(null);
    await start('/no/such/page');
    expect(await screen.findByTestId('not-found')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Page not found · FVG'));
  });

  it('leads / to the dossiers: signed out on to /login, signed in to the list', async () => {
    stubApi(null);
    const out = await start('/');
    await screen.findByTestId('login-form');
    expect(out.state.location.pathname).toBe('/login');
    expect(out.state.location.search).toEqual({ redirect: '/dossiers' });
    cleanup();

    setToken('tok');
    stubApi(me(false));
    const signedIn = await start('/');
    await screen.findByTestId('screen-frame');
    expect(signedIn.state.location.pathname).toBe('/dossiers');
  });

  it('sends a signed-out user from an auth route to /login, keeping where they were going', async () => {
    const fetchMock = stubApi(null);
    const router = await start('/dossiers/D-1?tab=cargo');
    await screen.findByTestId('login-form');
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toEqual({ redirect: '/dossiers/D-1?tab=cargo' });
    expect(fetchMock).not.toHaveBeenCalled();
    await waitFor(() => expect(document.title).toBe('Sign in · FVG'));
  });

  it('sends a signed-in user from a guest route to the dossiers list', async () => {
    setToken('tok');
    stubApi(me(false));
    const router = await start('/login');
    await screen.findByTestId('screen-frame');
    expect(router.state.location.pathname).toBe('/dossiers');
    expect(screen.getByTestId('app-version').textContent).toBe('v1.1.34');
  });

  it('lets a signed-in user open the password reset link', async () => {
    setToken('tok');
    stubApi(me(false));
    const router = await start('/guest/password/reset?token=abc');
    await screen.findByTestId('password-reset-form');
    expect(router.state.location.pathname).toBe('/guest/password/reset');
  });

  it('titles record screens with their id and hides warehouse entries without cw_access', async () => {
    setToken('tok');
    stubApi(me(false));
    await start('/dossiers/D-2026-000123');
    expect((await screen.findByTestId('record-id')).textContent).toContain('D-2026-000123');
    await waitFor(() => expect(document.title).toBe('Dossier · D-2026-000123 · FVG'));
    expect(screen.getByTestId('nav-dossiers')).toBeTruthy();
    expect(screen.queryByTestId('nav-stock')).toBeNull();
    expect(screen.queryByTestId('nav-shipments')).toBeNull();
  });

  it('shows No access on warehouse routes without cw_access', async () => {
    setToken('tok');
    stubApi(me(false));
    await start('/stock/7/tree');
    expect(await screen.findByTestId('no-access')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'No access' })).toBeTruthy();
  });

  it('shows warehouse entries and screens with cw_access', async () => {
    setToken('tok');
    stubApi(me(true));
    await start('/shipments/5/edit');
    expect((await screen.findByTestId('screen-frame')).getAttribute('data-route')).toBe('shipment-edit');
    expect(screen.getByTestId('nav-stock')).toBeTruthy();
    expect(screen.getByTestId('nav-shipments')).toBeTruthy();
  });

  it('/logout clears the session and goes to the login screen', async () => {
    setToken('tok');
    stubApi(me(false));
    const router = await start('/logout');
    await screen.findByTestId('login-form');
    expect(router.state.location.pathname).toBe('/login');
    expect(localStorage.getItem('bearerToken')).toBeNull();
  });

  it('starts the hub in the signed-in shell, shows its status, and stops it on sign-out', async () => {
    setToken('tok');
    stubApi(me(false));
    const hub = new FakeHubConnection();
    const router = await start('/dashboard', hub);
    const dot = await screen.findByTestId('hub-status');
    await waitFor(() => expect(dot.getAttribute('data-status')).toBe('connecting'));
    expect(hub.startCount).toBe(1);

    await act(async () => hub.resolveStart());
    expect(screen.getByTestId('hub-status').getAttribute('data-status')).toBe('connected');
    expect(screen.getByTestId('hub-status').getAttribute('aria-label')).toBe('Live updates: connected');

    await act(() => router.navigate({ to: '/logout' }));
    await screen.findByTestId('login-form');
    expect(hub.stopCount).toBeGreaterThanOrEqual(1);
    expect(hub.state).toBe('Disconnected');
    expect(screen.queryByTestId('hub-status')).toBeNull();
  });

  it('does not open the hub for visitors', async () => {
    stubApi(null);
    const hub = new FakeHubConnection({ autoStart: true });
    await start('/login', hub);
    await screen.findByTestId('login-form');
    expect(hub.startCount).toBe(0);
  });

  it('offers the admin mode switch to admins only, and remembers it', async () => {
    setToken('tok');
    stubApi(me(false, 'admin'));
    await start('/dashboard');
    fireEvent.click(await screen.findByTestId('user-menu'));
    const toggle = (await screen.findByTestId('admin-mode-switch')) as HTMLInputElement;
    expect(screen.getByTestId('user-menu-email').textContent).toBe('ann@example.com');
    expect(screen.queryByTestId('admin-mode-badge')).toBeNull();
    fireEvent.click(toggle);
    await screen.findByTestId('admin-mode-badge');
    expect(localStorage.getItem('fvg.adminMode')).toBe('true');
  });

  it('lists the integration keys in the admin’s navbar only, and titles the screen', async () => {
    setToken('tok');
    stubApi(me(false, 'admin'));
    await start('/admin/integration-keys');
    expect((await screen.findByTestId('nav-admin-integration-keys')).getAttribute('href')).toBe(
      '/admin/integration-keys',
    );
    await waitFor(() => expect(document.title).toBe('Integration keys · FVG'));
    cleanup();

    stubApi(me(false, 'staff'));
    await start('/admin/integration-keys');
    expect(await screen.findByTestId('no-access')).toBeTruthy();
    expect(screen.queryByTestId('nav-admin-integration-keys')).toBeNull();
  });

  it('has no admin mode switch for staff', async () => {
    setToken('tok');
    stubApi(me(false, 'staff'));
    await start('/dashboard');
    fireEvent.click(await screen.findByTestId('user-menu'));
    await screen.findByTestId('menu-profile');
    expect(screen.queryByTestId('admin-mode-switch')).toBeNull();
  });

  it('searches from the header on Enter', async () => {
    setToken('tok');
    stubApi(me(false));
    const router = await start('/dashboard');
    const input = await screen.findByTestId('header-search');
    fireEvent.change(input, { target: { value: 'MSKU1234565' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect((await screen.findByTestId('search-query')).textContent).toContain('MSKU1234565');
    expect(router.state.location.pathname).toBe('/search');
    expect(router.state.location.search).toEqual({ q: 'MSKU1234565' });
  });
});
