import { type ItemEstimate, isDecimal, itemEstimate } from '@fvg/contracts';
import { Stack, Text } from '@mantine/core';
import { formatMoney, formatNumber } from '../../../lib/format.ts';

/*
 * The duty and import VAT of one item worked out where the user can check it (domain-standards.md
 * "Customs value, duty and import VAT"): duty = customs value × duty rate; VAT base = customs value +
 * duty + costs to the first destination; VAT = base × VAT rate. The arithmetic is contracts'
 * itemEstimate, the same the API stores (ADR 0031): this only lays it out.
 */

/** What the calculation reads of an item: the form's text ('' for empty) or a saved item's decimals. */
export interface CalculationInput {
  customsValue: string | null;
  dutyRate: string | null;
  vatRate: string | null;
  vatCosts: string | null;
}

const eur = (amount: string) => formatMoney(amount as `${number}`, { currency: 'EUR' });
const rate = (percent: string) => `${formatNumber(percent as `${number}`, { maximumFractionDigits: 3 })} %`;

/** The value when it reads as a decimal, else null (empty, or still being typed). */
const decimalOrNull = (value: string | null): string | null => {
  const v = value?.trim() ?? '';
  return v !== '' && isDecimal(v) ? v : null;
};

/**
 * The estimate of an item as it stands, or null while the value or a rate is missing or unreadable
 * (contracts' itemEstimate: '' and text still being typed count as missing, costs as 0.00).
 */
export function estimateOf(item: CalculationInput): ItemEstimate | null {
  return itemEstimate(item);
}

/** What keeps the estimate from being worked out, as the sentence names it. */
function missingOf(item: CalculationInput): string[] {
  const missing: string[] = [];
  if (decimalOrNull(item.customsValue) === null) missing.push('the customs value');
  if (decimalOrNull(item.dutyRate) === null) missing.push('the duty rate');
  if (decimalOrNull(item.vatRate) === null) missing.push('the VAT rate');
  return missing;
}

function sentence(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** The worked duty and import VAT of one import item, or what is missing for it. */
export function ItemCalculation({
  item,
  testId = 'item-calculation',
}: {
  item: CalculationInput;
  testId?: string;
}) {
  const estimate = estimateOf(item);
  if (!estimate) {
    const found = missingOf(item);
    const missing = found.length > 0 ? found : ['the customs value', 'the duty rate', 'the VAT rate'];
    return (
      <Text size="sm" c="dimmed" data-testid={testId}>
        Enter {sentence(missing)} to see the estimate.
      </Text>
    );
  }
  return (
    <Stack gap={2} data-testid={testId} aria-label="Duty and import VAT estimate">
      <Text size="sm" data-testid={`${testId}-duty`}>
        Duty {eur(estimate.customsValue)} × {rate(estimate.dutyRate)} = <strong>{eur(estimate.duty)}</strong>
      </Text>
      <Text size="sm" data-testid={`${testId}-base`}>
        VAT base {eur(estimate.customsValue)} + {eur(estimate.duty)} + {eur(estimate.vatCosts)} ={' '}
        <strong>{eur(estimate.vatBase)}</strong>
      </Text>
      <Text size="sm" data-testid={`${testId}-vat`}>
        VAT {eur(estimate.vatBase)} × {rate(estimate.vatRate)} = <strong>{eur(estimate.vat)}</strong>
      </Text>
      <Text size="sm" fw={600} data-testid={`${testId}-total`}>
        Duty + VAT estimate {eur(estimate.total)}
      </Text>
    </Stack>
  );
}
