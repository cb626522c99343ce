import { cleanup, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/render.tsx';
import { ItemCalculation } from './item-calculation.tsx';

const calc = () => screen.getByTestId('item-calculation');

describe('ItemCalculation', () => {
  it('lays out the duty, the VAT base and the VAT of a hand-worked example', () => {
    // 12,000.00 × 4.5 % = 540.00; 12,000.00 + 540.00 + 350.00 = 12,890.00; × 21 % = 2,706.90.
    renderWithProviders(
      <ItemCalculation
        item={{ customsValue: '12000.00', dutyRate: '4.5', vatRate: '21', vatCosts: '350.00' }}
      />,
    );
    expect(screen.getByTestId('item-calculation-duty').textContent).toBe('Duty €12,000.00 × 4.5 % = €540.00');
    expect(screen.getByTestId('item-calculation-base').textContent).toBe(
      'VAT base €12,000.00 + €540.00 + €350.00 = €12,890.00',
    );
    expect(screen.getByTestId('item-calculation-vat').textContent).toBe('VAT €12,890.00 × 21 % = €2,706.90');
    expect(screen.getByTestId('item-calculation-total').textContent).toBe('Duty + VAT estimate €3,246.90');
  });

  it('rounds each figure half away from zero to the cent, and counts missing costs as nothing', () => {
    // 1,234.56 × 3.7 % = 45.67872 → 45.68; (1,234.56 + 45.68) × 19 % = 243.2456 → 243.25.
    // A saved item's decimals read the same (rates as the columns hold them: 3.700, 19.00).
    renderWithProviders(
      <ItemCalculation
        item={{ customsValue: '1234.56', dutyRate: '3.700', vatRate: '19.00', vatCosts: null }}
      />,
    );
    expect(calc().textContent).toContain('Duty €1,234.56 × 3.7 % = €45.68');
    expect(calc().textContent).toContain('VAT base €1,234.56 + €45.68 + €0.00 = €1,280.24');
    expect(calc().textContent).toContain('VAT €1,280.24 × 19 % = €243.25');
    expect(calc().textContent).toContain('Duty + VAT estimate €288.93');
  });

  it('says what is missing instead of a figure', () => {
    renderWithProviders(
      <ItemCalculation item={{ customsValue: '', dutyRate: '', vatRate: '', vatCosts: '' }} />,
    );
    expect(calc().textContent).toBe(
      'Enter the customs value, the duty rate and the VAT rate to see the estimate.',
    );
    cleanup();
    renderWithProviders(
      <ItemCalculation item={{ customsValue: '100.00', dutyRate: '0', vatRate: '', vatCosts: '' }} />,
    );
    expect(calc().textContent).toBe('Enter the VAT rate to see the estimate.');
    // Text still being typed ('12,5 ?' from the money input) is not a value yet.
    cleanup();
    renderWithProviders(
      <ItemCalculation item={{ customsValue: '12,5 ?', dutyRate: '2', vatRate: '21', vatCosts: '' }} />,
    );
    expect(calc().textContent).toBe('Enter the customs value to see the estimate.');
  });
});
