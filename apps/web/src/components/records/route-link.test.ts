import { describe, expect, it } from 'vitest';
import { routeTarget } from './route-link.ts';

describe('routeTarget', () => {
  it('resolves a route name of the route table with its params and URL search', () => {
    expect(routeTarget({ route: 'dossier', params: { dossierId: 'd 1' } })).toEqual({
      to: '/dossiers/d%201',
      search: {},
      href: '/dossiers/d%201',
    });
    expect(routeTarget({ route: 'container-events', params: {}, search: { open: 'MSCU1234565' } })).toEqual({
      to: '/containers',
      search: { open: 'MSCU1234565' },
      href: '/containers?open=MSCU1234565',
    });
  });

  it('answers nothing for a route this app does not know or a missing param', () => {
    expect(routeTarget({ route: 'warp-drive', params: {} })).toBeUndefined();
    expect(routeTarget({ route: 'dossier', params: {} })).toBeUndefined();
  });
});
