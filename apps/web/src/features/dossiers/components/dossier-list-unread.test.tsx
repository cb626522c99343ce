import type { DossierListRow } from '@fvg/contracts';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '../../../test/render-route.tsx';
import { dossierListConfig } from './dossier-list-config.tsx';

const row: DossierListRow = {
  id: '5d0c1a52-7c1e-4a0e-8f0e-1b2c3d4e5f60',
  number: 'D-2026-000042',
  status: 'booked',
  type: 'import',
  mode: 'sea',
  customer: { id: '0b6f3c1e-3a52-4a8e-9d7e-2f1f6c1b9a01', code: 'ACME', name: 'Acme Trading' },
  originLocode: null,
  destinationLocode: null,
  etd: null,
  eta: null,
  customerReference: null,
  masterBl: null,
  containerCount: 0,
  profit: null,
  handler: null,
  updatedAt: '2026-04-01T10:00:00.000Z',
  unreadMessages: 3,
};

const lookup = { key: ['lookup'], search: async () => [], byId: async () => null };

function unreadCell(staff: boolean) {
  const column = dossierListConfig({ staff, customerLookup: lookup }).columns.find(
    (c) => c.id === 'unreadMessages',
  );
  if (!column) throw new Error('no unread column');
  return column.cell;
}

describe('dossier list: unread chat messages', () => {
  it('shows the count as a badge that opens the chat tab, for staff and customers alike', async () => {
    for (const staff of [true, false]) {
      const cell = unreadCell(staff);
      const view = await renderRoute(<div>{cell(row)}</div>, { path: '/dossiers', url: '/dossiers' });
      const badge = screen.getByTestId('row-unread');
      expect(badge.textContent).toBe('3');
      expect(badge.getAttribute('aria-label')).toBe('3 unread messages');
      expect(badge.getAttribute('href')).toBe('/dossiers/D-2026-000042?tab=chat');
      view.unmount();
    }
  });

  it('shows nothing when everything is read', async () => {
    await renderRoute(<div>{unreadCell(true)({ ...row, unreadMessages: 0 })}</div>, {
      path: '/dossiers',
      url: '/dossiers',
    });
    expect(screen.queryByTestId('row-unread')).toBeNull();
  });
});
