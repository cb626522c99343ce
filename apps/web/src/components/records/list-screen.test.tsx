import type { ListResponse } from '@fvg/contracts';
import { notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { api } from '../../lib/api-client.ts';
import { withQuery } from '../../lib/query-string.ts';
import { clearToken, setToken } from '../../lib/session.ts';
import { freshListEachTest, stubListPage } from '../../test/list.tsx';
import { jsonResponse, meResponse, renderRoute } from '../../test/render-route.tsx';
import { numberColumn, partyColumn, statusColumn } from './columns.tsx';
import type { ListConfig } from './list-page.tsx';
import { type KeepsForm, ListScreen, NewThenOpenListScreen } from './list-screen.tsx';
import { searchFlag, searchText, searchValidator } from './list-search.ts';

interface Party {
  id: string;
  code: string;
  name: string;
  status: 'active' | 'blocked';
}

const acme: Party = { id: 'p1', code: 'ACME', name: 'Acme Trading', status: 'blocked' };

const config: ListConfig<Party> = {
  id: 'parties',
  path: 'parties',
  label: 'Parties',
  plural: 'parties',
  columns: [
    numberColumn({
      id: 'code',
      header: 'Code',
      width: 100,
      text: (p) => p.code,
      href: (p) => `/parties/${p.id}`,
    }),
    partyColumn({ id: 'name', header: 'Name', party: (p) => p }),
    statusColumn({
      status: (p) => p.status,
      colors: { active: 'green', blocked: 'red' },
      labels: { active: 'Active', blocked: 'Blocked' },
    }),
  ],
  defaultSort: 'code',
  searchPlaceholder: 'Search parties',
  getRowId: (p) => p.id,
  getRowTestId: (p) => `row-${p.code}`,
  listKey: (params) => ['parties', 'list', params],
  fetchList: (params, signal) => api.get<ListResponse<Party>>(withQuery('parties', params), { signal }),
};

const validateSearch = searchValidator(z.object({ new: searchFlag, open: searchText(64), edit: searchFlag }));

/** A form in a dialog: it reports which navigations would keep it, for the test to ask. */
function ProbeForm({ keepsForm, onCancel }: { keepsForm: KeepsForm; onCancel: () => void }) {
  return (
    <div data-testid="probe-form">
      <span data-testid="keeps-new">{String(keepsForm({ pathname: '/parties', search: { new: 1 } }))}</span>
      <span data-testid="keeps-list">{String(keepsForm({ pathname: '/parties', search: {} }))}</span>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

const WAIT = { timeout: 5000 };

freshListEachTest();

describe('ListScreen: a list route declared', () => {
  it('shows the list with the shared columns, and "New" opens its form in a dialog addressed by ?new=1', async () => {
    stubListPage([acme]);
    const { router } = await renderRoute(
      <ListScreen
        route="parties"
        config={config}
        create={{
          label: 'New party',
          testId: 'new-party',
          dialogTestId: 'new-party-dialog',
          form: ({ close, keepsForm }) => <ProbeForm keepsForm={keepsForm} onCancel={close} />,
        }}
      />,
      { path: '/parties', url: '/parties', validateSearch },
    );
    const row = await screen.findByTestId('row-ACME');
    // The record's own number links to its screen; the party reads by name with its code in the tooltip.
    expect(row.querySelector('a')?.getAttribute('href')).toBe('/parties/p1');
    expect(row.querySelector('[title="Acme Trading (ACME)"]')?.textContent).toBe('Acme Trading');
    // The status in words, its code kept for tests and styles.
    const status = screen.getByTestId('row-status');
    expect([status.textContent, status.getAttribute('data-status')]).toEqual(['Blocked', 'blocked']);

    expect(screen.queryByTestId('probe-form')).toBeNull();
    fireEvent.click(screen.getByTestId('new-party'));
    // The dialog loads with its first opening.
    await screen.findByTestId('probe-form', {}, WAIT);
    expect(router.state.location.search).toEqual({ new: 1 });
    expect(screen.getByTestId('new-party-dialog').textContent).toContain('New party');
    // Navigations that keep ?new=1 keep the form; back to the bare list leaves it.
    expect(screen.getByTestId('keeps-new').textContent).toBe('true');
    expect(screen.getByTestId('keeps-list').textContent).toBe('false');

    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(router.state.location.search).toEqual({}));
  });

  it('offers no "New" to those who may not create, and opens a row in its dialog (?open=, &edit=1)', async () => {
    stubListPage([acme]);
    const content = vi.fn();
    const { router } = await renderRoute(
      <ListScreen
        route="parties"
        config={config}
        create={false}
        open={{
          rowId: (p) => p.id,
          title: 'Party',
          editTitle: 'Edit party',
          dialogTestId: 'party-dialog',
          formIn: 'edit',
          content: (id, { editing, setEditing, keepsForm }) => {
            content(id);
            return (
              <div>
                <span data-testid="party-detail">
                  {id} {editing ? 'editing' : 'reading'}{' '}
                  {String(keepsForm({ pathname: '/parties', search: { open: id, edit: 1 } }))}
                </span>
                <button type="button" onClick={() => setEditing(true)}>
                  Edit
                </button>
              </div>
            );
          },
        }}
      />,
      { path: '/parties', url: '/parties', validateSearch },
    );
    fireEvent.click(await screen.findByTestId('row-ACME'));
    const detail = await screen.findByTestId('party-detail', {}, WAIT);
    expect(screen.queryByTestId('new-party')).toBeNull();
    expect(router.state.location.search).toEqual({ open: 'p1' });
    expect(detail.textContent).toBe('p1 reading true');
    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    await waitFor(() => expect(screen.getByTestId('party-detail').textContent).toBe('p1 editing true'));
    expect(router.state.location.search).toEqual({ open: 'p1', edit: 1 });
    expect(screen.getByTestId('party-dialog').textContent).toContain('Edit party');
    expect(content).toHaveBeenCalledWith('p1');
  });
});

/** A create form: "Save" hands the new party to onSaved, as a record form does after the server's answer. */
function NewPartyProbe(props: { prefix: string; onSaved: (p: Party) => void; onCancel: () => void }) {
  return (
    <button type="button" onClick={() => props.onSaved({ ...acme, id: 'p2', code: `${props.prefix}NEW` })}>
      Save
    </button>
  );
}

const partyLookups = { prefix: 'X' };
const partyConfig = ({ prefix }: { prefix: string; staff: boolean }) => ({
  ...config,
  label: `${prefix} parties`,
});

describe('NewThenOpenListScreen: a list whose new record opens on its own screen', () => {
  afterEach(() => clearToken());

  const start = (role: string) => {
    setToken('a.b.c');
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) =>
        new URL(String(input), 'http://app.test').pathname.endsWith('/me')
          ? meResponse(role)
          : jsonResponse({
              items: [acme],
              total: 1,
              totalIsEstimate: false,
              page: 1,
              pageSize: 50,
              nextCursor: null,
            }),
      ),
    );
    return renderRoute(
      <NewThenOpenListScreen
        route="parties"
        config={partyConfig}
        lookups={partyLookups}
        create={{ label: 'New party', form: NewPartyProbe }}
        saved={(p) => ({ message: `Party ${p.code} made.`, to: `/parties/${p.id}` })}
      />,
      { path: '/parties', url: '/parties', validateSearch },
    );
  };

  it('gives staff "New party": its form gets the lookups, and the saved record is announced and opened', async () => {
    const shown = vi.spyOn(notifications, 'show');
    const { router } = await start('staff');
    await screen.findByTestId('row-ACME');
    fireEvent.click(await screen.findByTestId('new-party', {}, WAIT));
    expect(router.state.location.search).toEqual({ new: 1 });
    expect((await screen.findByTestId('new-party-dialog', {}, WAIT)).textContent).toContain('New party');
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }, WAIT));
    expect((await screen.findByTestId('opened', {}, WAIT)).textContent).toBe('opened p2');
    expect(shown).toHaveBeenCalledWith({ color: 'green', message: 'Party XNEW made.' });
  });
});
