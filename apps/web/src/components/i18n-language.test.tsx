import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorState } from '../components/error-state.tsx';
import { PagingControl } from '../components/records/paging-control.tsx';
import { i18n, loadLanguage, resources, setLanguage } from '../lib/i18n.ts';
import { renderWithProviders } from '../test/render.tsx';

/** A made-up second language: every English sentence in ⟦ ⟧, placeholders kept. */
function pseudo(tree: unknown): unknown {
  if (typeof tree === 'string') return `⟦${tree}⟧`;
  return Object.fromEntries(Object.entries(tree as Record<string, unknown>).map(([k, v]) => [k, pseudo(v)]));
}

describe('a second language', () => {
  afterEach(async () => {
    await setLanguage('en');
  });

  it('is a catalogue: the shared pieces re-render in it without a code change, and English comes back', async () => {
    for (const [ns, tree] of Object.entries(resources.en)) i18n.addResourceBundle('qps', ns, pseudo(tree));
    renderWithProviders(
      <>
        <ErrorState onRetry={() => {}} />
        <PagingControl
          page={1}
          pageSize={50}
          total={120}
          totalIsEstimate
          shown={50}
          onPageChange={() => {}}
          onPageSizeChange={() => {}}
        />
      </>,
    );
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(screen.getByTestId('paging-total').textContent).toBe('1–50 of about 120');

    await act(() => setLanguage('qps'));
    expect(i18n.language).toBe('qps');
    expect(screen.getByRole('button', { name: '⟦Try again⟧' })).toBeTruthy();
    expect(screen.getByTestId('error-state').textContent).toContain(
      '⟦Something went wrong while showing this screen.⟧',
    );
    expect(screen.getByTestId('paging-total').textContent).toBe('⟦1–50 of ⟦about 120⟧⟧');
    expect(screen.getByRole('option', { name: '⟦50 per page⟧' })).toBeTruthy();

    await act(() => setLanguage('en'));
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(screen.getByTestId('paging-total').textContent).toBe('1–50 of about 120');
  });

  it('falls back to English for a key the other language lacks', async () => {
    i18n.addResourceBundle('partial', 'common', { loading: 'Chargement…' });
    await setLanguage('partial');
    expect(i18n.t('common:loading')).toBe('Chargement…');
    expect(i18n.t('common:retry')).toBe('Try again');
  });

  it('loads a language from its folder of catalogues when asked for, and only then', async () => {
    const asked: string[] = [];
    const file = (path: string, words: Record<string, unknown>) =>
      [
        path,
        async () => {
          asked.push(path);
          return { default: words };
        },
      ] as const;
    const loaders = Object.fromEntries([
      file('../locales/nl/common.json', { retry: 'Opnieuw proberen' }),
      file('../locales/nl/shell.json', { offline: 'Je bent offline' }),
      file('../locales/fr/common.json', { retry: 'Réessayer' }),
    ]);
    expect(await loadLanguage('nl', loaders)).toBe(true);
    expect(asked).toEqual(['../locales/nl/common.json', '../locales/nl/shell.json']);
    await i18n.changeLanguage('nl');
    expect(i18n.t('common:retry')).toBe('Opnieuw proberen');
    expect(i18n.t('shell:offline')).toBe('Je bent offline');
    expect(i18n.t('shell:error.title')).toBe('Something went wrong');
    expect(await loadLanguage('de', loaders)).toBe(false);
    await setLanguage('de');
    expect(i18n.language).toBe('en');
  });
});
