import type { UserAdmin } from '@fvg/contracts';
import { notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ListPage } from '../../../components/records/list-page.tsx';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { giveElementsSize, jsonResponse, renderRoute } from '../../../test/render-route.tsx';
import { validateUsersSearch } from '../search.ts';
import { userListConfig } from './user-list-config.tsx';

const parties: LookupSource = { key: ['parties', 'picker'], search: async () => [], byId: async () => null };

const lea: UserAdmin = {
  id: 'u-1',
  email: 'lea@fvg.local',
  name: 'Lea Leaver',
  role: 'staff',
  party: null,
  cwAccess: false,
  active: true,
  lastLoginAt: null,
  createdAt: '2026-11-01T08:00:00.000Z',
};

function stubApi() {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://app.test');
    if (init?.method === 'PATCH') return jsonResponse({ ...lea, ...JSON.parse(String(init.body)) });
    if (url.pathname === '/api/users')
      return jsonResponse({
        items: [lea],
        total: 1,
        totalIsEstimate: false,
        page: 1,
        pageSize: 50,
        nextCursor: null,
      });
    return jsonResponse({});
  });
  vi.stubGlobal('fetch', fetchMock);
  const patches = () =>
    fetchMock.mock.calls
      .filter(([, init]) => init?.method === 'PATCH')
      .map(([, init]) => JSON.parse(String(init?.body)));
  return { patches };
}

describe('admin users list', () => {
  beforeEach(() => giveElementsSize());

  it('asks before deactivating (the safe answer focused), then says what happened in words', async () => {
    const { patches } = stubApi();
    // The test harness renders no toast area: read what the toast would say.
    const shown = vi.spyOn(notifications, 'show');
    await renderRoute(<ListPage config={userListConfig(parties)} onOpen={() => {}} />, {
      path: '/admin/users',
      url: '/admin/users',
      validateSearch: validateUsersSearch,
    });
    fireEvent.click(await screen.findByTestId('user-active-lea@fvg.local'));
    const dialog = await screen.findByTestId('confirm-dialog');
    expect(await screen.findByText('Deactivate Lea Leaver?')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByTestId('confirm-cancel')));
    expect(patches()).toEqual([]);

    fireEvent.click(within(dialog).getByTestId('confirm-cancel'));
    // Keeping the user active sends nothing.
    expect(patches()).toEqual([]);

    fireEvent.click(screen.getByTestId('user-active-lea@fvg.local'));
    fireEvent.click(within(await screen.findByTestId('confirm-dialog')).getByTestId('confirm-ok'));
    await waitFor(() => expect(patches()).toEqual([{ active: false }]));
    await waitFor(() =>
      expect(shown).toHaveBeenCalledWith(
        expect.objectContaining({
          message: 'Lea Leaver is deactivated: signed out everywhere and cannot sign in.',
        }),
      ),
    );
  });
  it('signs a user out everywhere only after asking, and says so in words', async () => {
    stubApi();
    const shown = vi.spyOn(notifications, 'show');
    const fetchMock = globalThis.fetch as unknown as ReturnType<typeof vi.fn>;
    const ends = () =>
      fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST').map(([input]) => String(input));
    await renderRoute(<ListPage config={userListConfig(parties)} onOpen={() => {}} />, {
      path: '/admin/users',
      url: '/admin/users',
      validateSearch: validateUsersSearch,
    });
    fireEvent.click(await screen.findByTestId('user-end-sessions-lea@fvg.local'));
    const dialog = await screen.findByTestId('confirm-dialog');
    expect(await screen.findByText('Sign Lea Leaver out everywhere?')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByTestId('confirm-cancel')));
    fireEvent.click(within(dialog).getByTestId('confirm-cancel'));
    expect(ends()).toEqual([]);

    fireEvent.click(screen.getByTestId('user-end-sessions-lea@fvg.local'));
    fireEvent.click(within(await screen.findByTestId('confirm-dialog')).getByTestId('confirm-ok'));
    await waitFor(() => expect(ends()).toEqual(['/api/users/u-1/end-sessions']));
    await waitFor(() =>
      expect(shown).toHaveBeenCalledWith(
        expect.objectContaining({ message: 'Lea Leaver is signed out on every device.' }),
      ),
    );
  });
});
