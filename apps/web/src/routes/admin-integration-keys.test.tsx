import type { IntegrationKey } from '@fvg/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { validateIntegrationKeysSearch } from '../features/container-events/search.ts';
import { ADMIN_MODE_STORAGE_KEY } from '../lib/admin-mode.ts';
import { setToken } from '../lib/session.ts';
import { giveElementsSize, jsonResponse, renderRoute } from '../test/render-route.tsx';
import AdminIntegrationKeysScreen from './admin-integration-keys.tsx';

const SECRET = `fvg_${'k'.repeat(43)}`;
const me = (role: string) => ({
  id: 'u1',
  Email: 'ada@fvg.local',
  name: 'Ada Admin',
  role,
  party: null,
  access: { cw_access: true },
});
const oldKey: IntegrationKey = {
  id: 'k-old',
  name: 'Old terminal',
  prefix: 'fvg_AbCdEfGh',
  createdAt: '2026-01-02T10:00:00.000Z',
  createdBy: { id: 'u1', name: 'Ada Admin' },
  lastUsedAt: null,
  revokedAt: '2026-02-01T10:00:00.000Z',
};

function stubApi(role = 'admin') {
  const keys: IntegrationKey[] = [oldKey];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    if (url === '/api/me') return jsonResponse(me(role));
    if (url === '/api/integration-keys' && method === 'GET') return jsonResponse(keys);
    if (url === '/api/integration-keys' && method === 'POST') {
      const { name } = JSON.parse(String(init?.body)) as { name: string };
      const key: IntegrationKey = {
        ...oldKey,
        id: 'k-new',
        name,
        prefix: SECRET.slice(0, 12),
        revokedAt: null,
      };
      keys.unshift(key);
      return jsonResponse({ ...key, key: SECRET }, 201);
    }
    if (url === '/api/integration-keys/k-new' && method === 'DELETE') {
      keys[0] = { ...(keys[0] as IntegrationKey), revokedAt: '2026-03-01T10:00:00.000Z' };
      return new Response(null, { status: 204 });
    }
    return jsonResponse({ type: 'about:blank', title: 'Not found', status: 404 }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

async function start(url = '/admin/integration-keys') {
  setToken('a.b.c');
  localStorage.setItem(ADMIN_MODE_STORAGE_KEY, 'true');
  giveElementsSize();
  return renderRoute(<AdminIntegrationKeysScreen />, {
    path: '/admin/integration-keys',
    url,
    validateSearch: validateIntegrationKeysSearch,
  });
}

describe('integration keys', () => {
  it('shows a new key once, with a copy button, and never again', async () => {
    const fetchMock = stubApi();
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    const { router, queryClient } = await start();
    await screen.findByTestId('row-key-Old terminal');

    fireEvent.click(screen.getByTestId('new-integration-key'));
    await waitFor(() => expect(router.state.location.search).toEqual({ new: 1 }));
    // The contract's rule applies before anything is sent.
    fireEvent.click(await screen.findByTestId('form-submit'));
    expect(await screen.findByText('Name the integration, e.g. "Terminal ECT feed"')).toBeTruthy();
    fireEvent.change(screen.getByTestId('field-name'), { target: { value: 'Terminal ECT feed' } });
    fireEvent.click(screen.getByTestId('form-submit'));

    const shown = await screen.findByTestId('created-key');
    expect(within(shown).getByTestId('created-key-value').textContent).toBe(SECRET);
    expect(shown.textContent).toContain('you will not see it again');
    fireEvent.click(within(shown).getByTestId('copy-key'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(SECRET));
    expect((await screen.findByTestId('copy-key')).textContent).toBe('Copied');

    // The key is kept nowhere else: not in the query cache, and the mutation cache lets go of it.
    const cached = () =>
      JSON.stringify([
        queryClient
          .getQueryCache()
          .getAll()
          .map((q) => q.state.data),
        queryClient
          .getMutationCache()
          .getAll()
          .map((m) => m.state.data),
      ]);
    await waitFor(() => expect(cached()).not.toContain(SECRET));

    fireEvent.click(screen.getByTestId('created-key-done'));
    await waitFor(() => expect(screen.queryByTestId('created-key')).toBeNull());
    expect(router.state.location.search).toEqual({});
    expect(document.body.textContent).not.toContain(SECRET);
    // The list shows the new key by its first characters only.
    const row = await screen.findByTestId('row-key-Terminal ECT feed');
    expect(row.textContent).toContain(`${SECRET.slice(0, 12)}…`);
    expect(within(row).getByTestId('key-status').textContent).toBe('Active');

    // Opening the dialog again starts a new key; the old one is gone for good.
    fireEvent.click(screen.getByTestId('new-integration-key'));
    expect(((await screen.findByTestId('field-name')) as HTMLInputElement).value).toBe('');
    expect(screen.queryByTestId('created-key')).toBeNull();
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST')).toHaveLength(1);
  });

  it('revokes a key after asking', async () => {
    const fetchMock = stubApi();
    await start();
    fireEvent.click(await screen.findByTestId('new-integration-key'));
    fireEvent.change(await screen.findByTestId('field-name'), { target: { value: 'Carrier feed' } });
    fireEvent.click(screen.getByTestId('form-submit'));
    fireEvent.click(await screen.findByTestId('created-key-done'));

    const row = await screen.findByTestId('row-key-Carrier feed');
    // A revoked key offers nothing more.
    expect(within(screen.getByTestId('row-key-Old terminal')).queryByTestId('revoke-key')).toBeNull();
    fireEvent.click(within(row).getByTestId('revoke-key'));
    const dialog = await screen.findByTestId('confirm-dialog');
    expect(dialog.textContent).toContain('Carrier feed');
    fireEvent.click(within(dialog).getByTestId('confirm-ok'));
    await waitFor(() =>
      expect(
        within(screen.getByTestId('row-key-Carrier feed'))
          .getByTestId('key-status')
          .getAttribute('data-status'),
      ).toBe('revoked'),
    );
    expect(
      fetchMock.mock.calls.some(
        ([u, init]) => String(u) === '/api/integration-keys/k-new' && init?.method === 'DELETE',
      ),
    ).toBe(true);
  });

  it('is for administrators only, and asks for admin mode', async () => {
    stubApi('staff');
    const staff = await start();
    expect((await screen.findByTestId('no-access')).textContent).toContain('for administrators');
    staff.unmount();

    stubApi('admin');
    localStorage.setItem(ADMIN_MODE_STORAGE_KEY, 'false');
    setToken('a.b.c');
    await renderRoute(<AdminIntegrationKeysScreen />, {
      path: '/admin/integration-keys',
      url: '/admin/integration-keys',
    });
    expect(await screen.findByTestId('admin-mode-required')).toBeTruthy();
    expect(screen.queryByTestId('new-integration-key')).toBeNull();
  });
});
