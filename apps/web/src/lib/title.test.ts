import { describe, expect, it } from 'vitest';
import { pageTitle, TITLE_SEPARATOR } from './title.ts';

describe('pageTitle', () => {
  it('uses the separator " · "', () => {
    expect(TITLE_SEPARATOR).toBe(' · ');
  });

  it('is the screen title then FVG', () => {
    expect(pageTitle('Dossiers', {})).toBe('Dossiers · FVG');
    expect(pageTitle('Dossiers')).toBe('Dossiers · FVG');
  });

  it('puts the id parameter between title and tag', () => {
    expect(pageTitle('Sales invoice', { id: 'INV-2026-000007' })).toBe(
      'Sales invoice · INV-2026-000007 · FVG',
    );
  });

  it('uses dossierId when there is no id', () => {
    expect(pageTitle('Dossier', { dossierId: 'D-2026-000123' })).toBe('Dossier · D-2026-000123 · FVG');
  });

  it('prefers id over dossierId', () => {
    expect(pageTitle('Thing', { id: '7', dossierId: '9' })).toBe('Thing · 7 · FVG');
  });

  it('titles a draft opened by its id "draft", never by the id, where numbers come on issuing', () => {
    const id = '40751d02-5c1e-4b7a-9f0e-2d6c1b9a7e31';
    expect(pageTitle('Sales invoice', { id }, { draftsById: true })).toBe('Sales invoice · draft · FVG');
    expect(pageTitle('Sales invoice', { id: 'I-2026-000007' }, { draftsById: true })).toBe(
      'Sales invoice · I-2026-000007 · FVG',
    );
    expect(pageTitle('Stock record', { id })).toBe(`Stock record · ${id} · FVG`);
  });

  it('ignores empty parameters', () => {
    expect(pageTitle('Dossier', { dossierId: '' })).toBe('Dossier · FVG');
  });

  it('is FVG alone without a title', () => {
    expect(pageTitle(undefined, {})).toBe('FVG');
    expect(pageTitle(undefined, { id: '12' })).toBe('FVG');
    expect(pageTitle('  ', { id: '12' })).toBe('FVG');
  });
});
