import { compareDecimal, isDecimal, monthName } from '@fvg/contracts';
import { Button, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { customsRatesOptions } from '../../company/index.ts';

/**
 * Under a declaration's exchange rate: the company's customs rate of the month for its currency (UCC
 * art. 53; ADR 0070), with "Use it" when the typed rate differs, or where to enter it when the month
 * has none. Lodging refuses any other rate; this says so before the clerk presses Lodge.
 */
export function CustomsRateHint({
  currency,
  month,
  value,
  onUse,
}: {
  currency: string;
  month: string;
  value: string;
  onUse: (rate: string) => void;
}) {
  const rates = useQuery(customsRatesOptions(month));
  if (!rates.data) return null;
  const rate = rates.data.rates.find((r) => r.currency === currency)?.rate;
  const name = monthName(month);
  if (!rate)
    return (
      <Text span size="xs" c="orange.9" data-testid="customs-rate-hint">
        No customs rate for {currency} in {name} yet: add it under Customs rates on the declarations list.
      </Text>
    );
  const typed = value.trim().replace(',', '.');
  if (isDecimal(typed) && compareDecimal(typed, rate) === 0)
    return (
      <Text span size="xs" data-testid="customs-rate-hint">
        The customs rate of {name}
      </Text>
    );
  return (
    <Text span size="xs" data-testid="customs-rate-hint">
      Customs rate of {name}: {rate}{' '}
      <Button
        variant="subtle"
        size="compact-xs"
        onClick={() => onUse(rate)}
        data-testid="customs-rate-use"
        aria-label={`Use the customs rate of ${name}, ${rate}`}
      >
        Use it
      </Button>
    </Text>
  );
}
