import { describe, expect, it } from 'vitest';
import { i18n, setLanguage, t } from './i18n.ts';

describe('i18n layer', () => {
  it('answers English from the catalogue before any render, with interpolation', () => {
    expect(t('common:loading')).toBe('Loading…');
    expect(i18n.t('count', { ns: 'common', count: 2, defaultValue: '{{count}} items' })).toBe('2 items');
  });

  it('falls back to English for a language without a catalogue', async () => {
    await setLanguage('xx');
    expect(i18n.language).toBe('en');
    expect(t('common:retry')).toBe('Try again');
  });
});
