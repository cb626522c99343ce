import { describe, expect, it } from 'vitest';
import { safeRedirectTarget } from './redirect.ts';

describe('safeRedirectTarget', () => {
  it('keeps paths of the app', () => {
    expect(safeRedirectTarget('/dossiers/D-1?tab=cargo#x')).toBe('/dossiers/D-1?tab=cargo#x');
  });

  it('drops anything that could leave the app or loop', () => {
    for (const value of [
      '//evil.example',
      'https://evil.example',
      '/\\evil',
      'dossiers',
      '/login',
      '/logout?x=1',
      1,
    ]) {
      expect(safeRedirectTarget(value)).toBeUndefined();
    }
  });
});
