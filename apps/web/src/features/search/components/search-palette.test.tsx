import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse } from '../../../test/render-route.tsx';
import {
  answer,
  container,
  dossier,
  hangUntilAborted,
  searchCalls,
  startApp,
  stubSearchApi,
} from '../../../test/search-api-stub.tsx';
import { recentSearchesKey } from '../recent-searches.ts';

/** The palette's chunk, the debounce and the answer: more than the default second on a busy machine. */
const WAIT = { timeout: 5000 };

const ctrlK = () => fireEvent.keyDown(document.activeElement ?? document.body, { key: 'k', ctrlKey: true });

/** Ctrl+K, then the palette's box once its chunk is in. */
async function openPalette() {
  // The shell is up (its hotkey registered) once the header box shows.
  await screen.findByTestId('header-search');
  ctrlK();
  return (await screen.findByTestId('search-palette-input', {}, WAIT)) as HTMLInputElement;
}

const type = (input: HTMLElement, value: string) => fireEvent.change(input, { target: { value } });
const key = (input: HTMLElement, code: string) => fireEvent.keyDown(input, { key: code, code });

describe('search palette', () => {
  it('opens with Ctrl+K over any screen, explains itself, searches as one types, and Enter opens the record', async () => {
    const fetchMock = stubSearchApi((url) =>
      jsonResponse(
        answer(url.searchParams.get('q') ?? '', [
          { kind: 'container', results: [container()], nextCursor: null },
          { kind: 'dossier', results: [dossier()], nextCursor: 'c1' },
        ]),
      ),
    );
    const { router } = await startApp('/profile');

    const input = await openPalette();
    expect(screen.getByTestId('search-palette-hint').textContent).toContain('container number');

    type(input, 'M');
    expect((await screen.findByTestId('search-palette-too-short')).textContent).toBe(
      'Type at least 2 characters to search.',
    );

    type(input, 'MSCU 123');
    const row = await screen.findByTestId('search-result-container-MSCU1234565', {}, WAIT);
    // One request for what was typed once typing paused, a few per kind.
    expect(searchCalls(fetchMock).map(({ url }) => Object.fromEntries(url.searchParams))).toEqual([
      { q: 'MSCU 123', limit: '5' },
    ]);
    expect(row.textContent).toContain('D-2026-000042 · Acme Trading · Loaded on board');
    const dossiers = screen.getByTestId('search-group-dossier');
    expect(dossiers.getAttribute('aria-label')).toBe('Dossiers');
    // What matched is said when the title does not show it.
    expect(within(dossiers).getByTestId('search-result-dossier-d-42').textContent).toContain(
      'matches MSCU1234565',
    );
    // Groups in the server's order; the first result is the one Enter opens.
    const groups = screen.getAllByTestId(/^search-group-/).map((g) => g.dataset.testid);
    expect(groups).toEqual(['search-group-container', 'search-group-dossier']);
    await waitFor(() => expect(row.hasAttribute('data-selected')).toBe(true));

    key(input, 'ArrowDown');
    const dossierRow = screen.getByTestId('search-result-dossier-d-42');
    expect(dossierRow.hasAttribute('data-selected')).toBe(true);
    expect(row.hasAttribute('data-selected')).toBe(false);
    key(input, 'Enter');

    await waitFor(() => expect(router.state.location.pathname).toBe('/dossiers/d-42'));
    await waitFor(() => expect(screen.queryByTestId('search-palette-input')).toBeNull());
    expect(JSON.parse(localStorage.getItem(recentSearchesKey('u1')) ?? '[]')).toEqual(['MSCU 123']);
  });

  it('opens a record whose link carries URL search, and offers the recent searches when empty', async () => {
    localStorage.setItem(recentSearchesKey('u1'), JSON.stringify(['TEXU3070079']));
    localStorage.setItem(recentSearchesKey('someone-else'), JSON.stringify(['theirs']));
    stubSearchApi((url) =>
      jsonResponse(
        answer(url.searchParams.get('q') ?? '', [
          {
            kind: 'container',
            results: [
              container({
                id: 'TEXU3070079',
                title: 'TEXU3070079',
                link: { route: 'container-events', params: {}, search: { open: 'TEXU3070079' } },
              }),
            ],
            nextCursor: null,
          },
        ]),
      ),
    );
    const { router } = await startApp('/profile');
    const input = await openPalette();

    const recent = await screen.findAllByTestId('search-recent-item');
    expect(recent.map((r) => r.textContent)).toEqual(['TEXU3070079']);
    fireEvent.click(recent[0] as HTMLElement);
    expect(input.value).toBe('TEXU3070079');

    const row = await screen.findByTestId('search-result-container-TEXU3070079', {}, WAIT);
    await waitFor(() => expect(row.hasAttribute('data-selected')).toBe(true));
    key(input, 'Enter');
    await waitFor(() => expect(router.state.location.pathname).toBe('/containers'));
    expect(router.state.location.search).toMatchObject({ open: 'TEXU3070079' });
  });

  it('aborts the request a newer text supersedes', async () => {
    const fetchMock = stubSearchApi((url, init) =>
      url.searchParams.get('q') === 'MS'
        ? hangUntilAborted(init)
        : jsonResponse(answer('MSCU', [{ kind: 'container', results: [container()], nextCursor: null }])),
    );
    await startApp('/profile');
    const input = await openPalette();

    type(input, 'MS');
    await waitFor(() => expect(searchCalls(fetchMock)).toHaveLength(1));
    const first = searchCalls(fetchMock)[0];
    expect(first?.signal?.aborted).toBe(false);

    type(input, 'MSCU');
    await screen.findByTestId('search-result-container-MSCU1234565', {}, WAIT);
    expect(first?.signal?.aborted).toBe(true);
    expect(searchCalls(fetchMock).map(({ url }) => url.searchParams.get('q'))).toEqual(['MS', 'MSCU']);
  });

  it('never lets Enter open a result of an earlier text: until the answer is in, Enter goes to all results', async () => {
    let release: (() => void) | undefined;
    stubSearchApi(async (url) => {
      const q = url.searchParams.get('q') ?? '';
      if (q === 'MSCU9') await new Promise<void>((resolve) => (release = resolve));
      return jsonResponse(answer(q, [{ kind: 'container', results: [container()], nextCursor: null }]));
    });
    const { router } = await startApp('/profile');
    const input = await openPalette();

    type(input, 'MSCU');
    const row = await screen.findByTestId('search-result-container-MSCU1234565', {}, WAIT);
    await waitFor(() => expect(row.hasAttribute('data-selected')).toBe(true));

    type(input, 'MSCU9');
    // The old results stay in view, but neither a click nor Enter opens them.
    const stale = screen.getByTestId('search-result-container-MSCU1234565') as HTMLButtonElement;
    expect(stale.disabled).toBe(true);
    fireEvent.click(stale);
    expect(router.state.location.pathname).toBe('/profile');
    key(input, 'Enter');
    await waitFor(() => expect(router.state.location.pathname).toBe('/search'));
    expect(router.state.location.search).toEqual({ q: 'MSCU9' });
    release?.();
  });

  it('says when nothing is found, and shows the problem of a failed search with a way to retry', async () => {
    let fail = true;
    const fetchMock = stubSearchApi((url) =>
      fail
        ? jsonResponse(
            {
              type: 'about:blank',
              title: 'Too many requests',
              status: 429,
              detail: 'Too many searches at once.',
            },
            429,
          )
        : jsonResponse(answer(url.searchParams.get('q') ?? '', [])),
    );
    await startApp('/profile');
    const input = await openPalette();

    type(input, 'ZZZZ');
    const alert = await screen.findByTestId('search-palette-error', {}, WAIT);
    expect(alert.textContent).toContain('Too many searches at once.');

    fail = false;
    const callsBefore = searchCalls(fetchMock).length;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    const empty = await screen.findByTestId('search-palette-empty', {}, WAIT);
    expect(empty.textContent).toContain('Nothing found for “ZZZZ”');
    expect(searchCalls(fetchMock).length).toBe(callsBefore + 1);
    // Nothing to open: no "all results" either.
    expect(screen.queryByTestId('search-palette-all')).toBeNull();
  });

  it('is opened by typing in the header box, which hands over its text', async () => {
    const fetchMock = stubSearchApi((url) =>
      jsonResponse(
        answer(url.searchParams.get('q') ?? '', [
          { kind: 'container', results: [container()], nextCursor: null },
        ]),
      ),
    );
    await startApp('/profile');
    const header = await screen.findByTestId('header-search');
    fireEvent.focus(header);
    type(header, 'MSCU');

    const input = (await screen.findByTestId('search-palette-input')) as HTMLInputElement;
    expect(input.value).toBe('MSCU');
    await screen.findByTestId('search-result-container-MSCU1234565', {}, WAIT);
    expect(searchCalls(fetchMock)[0]?.url.searchParams.get('q')).toBe('MSCU');

    // Ctrl+K again closes it.
    ctrlK();
    await waitFor(() => expect(screen.queryByTestId('search-palette-input')).toBeNull());
    expect((header as HTMLInputElement).value).toBe('');
  });
});
