import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { recentSearchesKey } from '../features/search/recent-searches.ts';
import { setToken } from '../lib/session.ts';
import { jsonResponse, renderRoute } from '../test/render-route.tsx';
import {
  answer,
  container,
  dossier,
  type SearchAnswer,
  searchCalls,
  stubSearchApi,
} from '../test/search-api-stub.tsx';
import SearchScreen from './search.tsx';

/** /search at `url` with the app's validation of its one parameter. */
function start(url: string) {
  setToken('a.b.c');
  return renderRoute(<SearchScreen />, {
    path: '/search',
    url,
    validateSearch: (search) => ({ q: typeof search.q === 'string' ? search.q : undefined }),
  });
}

const params = (url: URL) => Object.fromEntries(url.searchParams);

describe('/search', () => {
  it('lists every kind found with links to the records, and "More" pages one kind with its cursor', async () => {
    const more: Record<string, SearchAnswer> = {
      c1: () =>
        jsonResponse(
          answer('MSCU', [
            {
              kind: 'dossier',
              results: [
                dossier({ id: 'd-43', title: 'D-2026-000043' }),
                dossier({ id: 'd-44', title: 'D-2026-000044' }),
              ],
              nextCursor: 'c2',
            },
          ]),
        ),
      c2: () =>
        jsonResponse(
          answer('MSCU', [
            { kind: 'dossier', results: [dossier({ id: 'd-45', title: 'D-2026-000045' })], nextCursor: null },
          ]),
        ),
    };
    const fetchMock = stubSearchApi((url, init) => {
      const cursor = url.searchParams.get('cursor');
      if (cursor) return (more[cursor] as SearchAnswer)(url, init);
      return jsonResponse(
        answer('MSCU', [
          { kind: 'container', results: [container()], nextCursor: null },
          { kind: 'dossier', results: [dossier()], nextCursor: 'c1' },
        ]),
      );
    });
    await start('/search?q=MSCU1');
    await screen.findByTestId('search-group-container');
    fireEvent.change(screen.getByTestId('search-page-input'), { target: { value: 'MSCU' } });
    fireEvent.click(screen.getByTestId('search-page-submit'));
    await waitFor(() => expect(screen.getByTestId('search-query').textContent).toBe('Results for “MSCU”'));

    const containers = await screen.findByTestId('search-group-container');
    expect(screen.getByTestId('search-query').textContent).toBe('Results for “MSCU”');
    expect(within(containers).getByRole('heading').textContent).toBe('Containers');
    const containerLink = within(containers).getByRole('link', { name: 'MSCU1234565' });
    expect(containerLink.getAttribute('href')).toBe('/containers?open=MSCU1234565');
    expect(within(containers).getByText('D-2026-000042 · Acme Trading · Loaded on board')).toBeTruthy();
    expect(screen.queryByTestId('search-more-container')).toBeNull();

    const dossiers = screen.getByTestId('search-group-dossier');
    expect(within(dossiers).getByRole('link', { name: 'D-2026-000042' }).getAttribute('href')).toBe(
      '/dossiers/d-42',
    );
    expect(searchCalls(fetchMock).map(({ url }) => params(url))).toEqual([
      { q: 'MSCU1', limit: '10' },
      { q: 'MSCU', limit: '10' },
    ]);

    fireEvent.click(within(dossiers).getByTestId('search-more-dossier'));
    await within(dossiers).findByRole('link', { name: 'D-2026-000044' });
    fireEvent.click(within(dossiers).getByTestId('search-more-dossier'));
    await within(dossiers).findByRole('link', { name: 'D-2026-000045' });
    expect(searchCalls(fetchMock).map(({ url }) => params(url))).toEqual([
      { q: 'MSCU1', limit: '10' },
      { q: 'MSCU', limit: '10' },
      { q: 'MSCU', kinds: 'dossier', limit: '25', cursor: 'c1' },
      { q: 'MSCU', kinds: 'dossier', limit: '25', cursor: 'c2' },
    ]);
    expect(
      within(dossiers)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['D-2026-000042', 'D-2026-000043', 'D-2026-000044', 'D-2026-000045']);
    // The last page had no cursor: no more "More".
    await waitFor(() => expect(within(dossiers).queryByTestId('search-more-dossier')).toBeNull());

    // Back to an earlier search (answered from the cache): its first page only, none of these pages.
    fireEvent.change(screen.getByTestId('search-page-input'), { target: { value: 'MSCU1' } });
    fireEvent.click(screen.getByTestId('search-page-submit'));
    await waitFor(() =>
      expect(
        within(screen.getByTestId('search-group-dossier'))
          .getAllByRole('link')
          .map((a) => a.textContent),
      ).toEqual(['D-2026-000042']),
    );
    expect(
      searchCalls(fetchMock).filter(
        ({ url }) => url.searchParams.get('q') === 'MSCU1' && url.searchParams.has('cursor'),
      ),
    ).toEqual([]);
  });

  it('explains an empty or too short query (with the recent searches) and does not ask the server', async () => {
    localStorage.setItem(recentSearchesKey('u1'), JSON.stringify(['D-2026-000042', 'acme']));
    const fetchMock = stubSearchApi(() => jsonResponse(answer('x', [])));
    await start('/search');
    const hint = await screen.findByTestId('search-hint');
    expect(hint.textContent).toContain('What are you looking for?');
    await waitFor(() =>
      expect(
        within(hint)
          .getAllByTestId('search-recent-item')
          .map((a) => a.getAttribute('href')),
      ).toEqual(['/search?q=D-2026-000042', '/search?q=acme']),
    );

    fireEvent.change(screen.getByTestId('search-page-input'), { target: { value: 'M' } });
    fireEvent.click(screen.getByTestId('search-page-submit'));
    expect((await screen.findByTestId('search-too-short')).textContent).toContain(
      'Type at least 2 characters to search.',
    );
    expect(searchCalls(fetchMock)).toHaveLength(0);
  });

  it('puts a new search in the URL, remembers it, and says when nothing is found', async () => {
    const fetchMock = stubSearchApi((url) => jsonResponse(answer(url.searchParams.get('q') ?? '', [])));
    const { router } = await start('/search?q=MSCU');
    await screen.findByTestId('search-empty');

    const input = screen.getByTestId('search-page-input') as HTMLInputElement;
    expect(input.value).toBe('MSCU');
    fireEvent.change(input, { target: { value: ' Globex ' } });
    fireEvent.click(screen.getByTestId('search-page-submit'));
    await waitFor(() => expect(router.state.location.search).toEqual({ q: 'Globex' }));
    const empty = await screen.findByTestId('search-empty');
    await waitFor(() => expect(empty.textContent).toContain('Nothing found for “Globex”'));
    expect(searchCalls(fetchMock).map(({ url }) => url.searchParams.get('q'))).toEqual(['MSCU', 'Globex']);
    await waitFor(() =>
      expect(JSON.parse(localStorage.getItem(recentSearchesKey('u1')) ?? '[]')).toEqual(['Globex']),
    );
  });

  it('shows the problem of a failed search, and of a failed "More", each with a way to try again', async () => {
    let fail = true;
    const problem = () =>
      jsonResponse(
        {
          type: 'about:blank',
          title: 'Bad request',
          status: 400,
          detail: 'The request has invalid fields.',
          errors: [{ field: 'cursor', message: 'This cursor has expired: search again' }],
        },
        400,
      );
    stubSearchApi((url) => {
      if (fail) return problem();
      if (url.searchParams.get('cursor')) return problem();
      return jsonResponse(answer('MSCU', [{ kind: 'dossier', results: [dossier()], nextCursor: 'c1' }]));
    });
    await start('/search?q=MSCU');
    const error = await screen.findByTestId('error-state');
    expect(error.textContent).toContain('The search failed');
    expect(error.textContent).toContain('This cursor has expired: search again');

    fail = false;
    fireEvent.click(within(error).getByRole('button', { name: 'Try again' }));
    const dossiers = await screen.findByTestId('search-group-dossier');
    fireEvent.click(within(dossiers).getByTestId('search-more-dossier'));
    expect((await within(dossiers).findByTestId('search-more-error')).textContent).toContain(
      'This cursor has expired: search again',
    );
    expect(within(dossiers).getByTestId('search-more-dossier').textContent).toBe('Try again');
  });
});
