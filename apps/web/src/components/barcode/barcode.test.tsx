import { makeSscc } from '@fvg/contracts';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render.tsx';
import { Code128, Gs1_128 } from './index.ts';

// GS1 General Specifications' worked example of an SSCC (check digit 6).
const SSCC = '095287654321012346';

/** bwip-js draws each bar as a stroked line ("M x h L x 0"), grouped in one path per bar width. */
function barCount(svg: SVGElement): number {
  return [...svg.querySelectorAll('path')].reduce(
    (n, path) => n + (path.getAttribute('d')?.match(/M/g)?.length ?? 0),
    0,
  );
}

function barsOf(testId: string): SVGElement {
  const svg = screen.getByTestId(testId).querySelector('svg');
  if (!svg) throw new Error(`no SVG in ${testId}`);
  return svg;
}

describe('Gs1_128', () => {
  it('draws the SSCC under AI (00) as SVG bars with the human-readable line below', () => {
    renderWithProviders(<Gs1_128 sscc={SSCC} prefixLength={7} />);
    const svg = barsOf('gs1-128');
    // Start, FNC1, ten digit pairs, check symbol and stop: 14 symbols of three bars (stop: four).
    expect(barCount(svg)).toBe(43);
    expect(screen.getByText('(00) 0 9528765 432101234 6')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'SSCC barcode (00) 0 9528765 432101234 6' })).toBeTruthy();
  });

  it('encodes different SSCCs as different bars', () => {
    const other = makeSscc({ extensionDigit: 0, companyPrefix: '9528765', serial: 432101235 });
    const { unmount } = renderWithProviders(<Gs1_128 sscc={SSCC} />);
    const first = barsOf('gs1-128').innerHTML;
    unmount();
    renderWithProviders(<Gs1_128 sscc={other} />);
    expect(barsOf('gs1-128').innerHTML).not.toBe(first);
    expect(screen.getByText(`(00) ${other}`)).toBeTruthy();
  });

  it('shows why, not a crash, when the SSCC is invalid', () => {
    renderWithProviders(<Gs1_128 sscc="095287654321012345" />);
    const fallback = screen.getByTestId('gs1-128-invalid');
    expect(fallback.querySelector('svg')).toBeNull();
    expect(fallback.textContent).toContain('No barcode: The check digit should be 6');
    expect(fallback.textContent).toContain('095287654321012345');
  });
});

describe('Code128', () => {
  it('draws a shipment number as SVG bars with the value below', () => {
    renderWithProviders(<Code128 value="S-2026-000012" />);
    // Start B, 13 characters (or code-C pairs) and a check symbol of three bars each, stop of four.
    expect(barCount(barsOf('code-128'))).toBeGreaterThan(30);
    expect(screen.getByRole('img', { name: 'Barcode S-2026-000012' })).toBeTruthy();
    expect(screen.getByText('S-2026-000012')).toBeTruthy();
  });

  it('shows a message for a value Code 128 cannot carry', () => {
    renderWithProviders(<Code128 value="Größe €" />);
    const fallback = screen.getByTestId('code-128-invalid');
    expect(fallback.querySelector('svg')).toBeNull();
    expect(fallback.textContent).toContain(
      'No barcode: Code 128 carries letters, digits and ASCII signs only',
    );
  });
});
