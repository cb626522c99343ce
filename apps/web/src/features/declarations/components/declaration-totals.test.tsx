import { declarationTotals } from '@fvg/contracts';
import { cleanup, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { DeclarationTotals } from './declaration-totals.tsx';

const items = [
  {
    packages: 10,
    grossMassKg: '120.500',
    netMassKg: '100.000',
    invoiceValue: '13000.00',
    customsValue: '12000.00',
    statisticalValue: '12000.00',
    dutyRate: '4.5',
    vatRate: '21',
    vatCosts: '350.00',
  },
  {
    packages: 2,
    grossMassKg: '0.750',
    netMassKg: '0.600',
    invoiceValue: '250.00',
    customsValue: '1234.56',
    statisticalValue: null,
    dutyRate: '3.7',
    vatRate: '19',
    vatCosts: null,
  },
];

const text = (id: string) => screen.getByTestId(id).textContent;

describe('DeclarationTotals', () => {
  it('sums packages, masses and values, and for an import the duty and VAT labelled as an estimate', () => {
    renderWithProviders(
      <DeclarationTotals type="import" totals={declarationTotals('import', items)} currency="USD" />,
    );
    expect(text('total-packages')).toBe('Packages12');
    expect(text('total-gross-mass')).toBe('Gross mass121.25 kg');
    expect(text('total-net-mass')).toBe('Net mass100.6 kg');
    expect(text('total-invoice-value')).toBe('Invoice value$13,250.00');
    expect(text('total-customs-value')).toBe('Customs value€13,234.56');
    // Duty 540.00 + 45.68; VAT 2,706.90 + 243.25.
    expect(text('total-duty')).toBe('Duty (estimate)€585.68');
    expect(text('total-vat')).toBe('Import VAT (estimate)€2,950.15');
    expect(text('total-duty-and-vat')).toBe('Duty + VAT (estimate)€3,535.83');
  });

  it('says what an import lacks for the estimate, shows none for an export, and a transit’s duties at stake', () => {
    const noRates = items.map((i) => ({ ...i, vatRate: null }));
    renderWithProviders(<DeclarationTotals type="import" totals={declarationTotals('import', noRates)} />);
    expect(text('total-estimate')).toContain('enter the customs value, duty rate and VAT rate of the items');
    expect(screen.queryByTestId('total-duty')).toBeNull();

    cleanup();
    renderWithProviders(
      <DeclarationTotals type="export" totals={declarationTotals('export', items)} currency="EUR" />,
    );
    expect(screen.queryByTestId('total-estimate')).toBeNull();
    expect(text('total-statistical-value')).toBe('Statistical value€12,000.00');

    cleanup();
    renderWithProviders(<DeclarationTotals type="transit" totals={declarationTotals('transit', items)} />);
    // What the guarantee must cover (UCC art. 89–90): 540.00 + 2,633.40 and 45.68 + 243.25, without the
    // costs to a first destination an import's VAT base has.
    expect(text('total-at-stake')).toBe('Duties and taxes at stake (the guarantee covers them)€3,462.33');
    expect(screen.queryByTestId('total-duty')).toBeNull();
    expect(screen.queryByTestId('total-statistical-value')).toBeNull();
    // A transit has no invoice.
    expect(screen.queryByTestId('total-invoice-value')).toBeNull();

    cleanup();
    renderWithProviders(<DeclarationTotals type="export" totals={declarationTotals('export', items)} />);
    // No currency chosen yet: the figure without a symbol.
    expect(text('total-invoice-value')).toBe('Invoice value13,250.00');

    cleanup();
    renderWithProviders(<DeclarationTotals type="transit" totals={declarationTotals('transit', noRates)} />);
    expect(text('total-estimate')).toContain('enter the customs value, duty rate and VAT rate of the items');
    expect(screen.queryByTestId('total-at-stake')).toBeNull();
  });
});
