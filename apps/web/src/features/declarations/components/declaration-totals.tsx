import type { DeclarationType, DeclarationTotals as Totals } from '@fvg/contracts';
import { Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatMoney, formatNumber } from '../../../lib/format.ts';

/*
 * The sums of a declaration's items (SAD boxes 6, 35, 38, 46 and 47 in total): packages, masses,
 * invoice and customs value, and for an import the duty and import VAT estimate (contracts'
 * declarationTotals, so the screen and the API's list columns agree to the cent).
 */

const eur = (amount: string) => formatMoney(amount as `${number}`, { currency: 'EUR' });
const kg = (mass: string) => `${formatNumber(mass as `${number}`, { maximumFractionDigits: 3 })} kg`;

function Figure({
  label,
  value,
  testId,
  strong,
}: {
  label: string;
  value: ReactNode;
  testId: string;
  strong?: boolean;
}) {
  return (
    <Stack gap={0} data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={strong ? 700 : 600}>
        {value}
      </Text>
    </Stack>
  );
}

export function DeclarationTotals({
  type,
  totals,
  currency = null,
}: {
  type: DeclarationType;
  totals: Totals;
  /** The header currency the invoice values are in (null: not chosen yet). */
  currency?: string | null;
}) {
  const invoice =
    currency && /^[A-Z]{3}$/.test(currency)
      ? formatMoney(totals.invoiceValue as `${number}`, { currency })
      : formatNumber(totals.invoiceValue as `${number}`, { minimumFractionDigits: 2 });
  return (
    <Stack gap="xs" data-testid="declaration-totals">
      <Group gap="xl" wrap="wrap" align="flex-start">
        <Figure label="Packages" value={formatNumber(totals.packages)} testId="total-packages" />
        <Figure label="Gross mass" value={kg(totals.grossMassKg)} testId="total-gross-mass" />
        <Figure label="Net mass" value={kg(totals.netMassKg)} testId="total-net-mass" />
        {/* A transit has no invoice (no box 22): its figure would read 0.00. */}
        {type !== 'transit' && <Figure label="Invoice value" value={invoice} testId="total-invoice-value" />}
        <Figure label="Customs value" value={eur(totals.customsValue)} testId="total-customs-value" />
        {type !== 'transit' && (
          <Figure
            label="Statistical value"
            value={eur(totals.statisticalValue)}
            testId="total-statistical-value"
          />
        )}
      </Group>
      {type === 'transit' && (
        <Group gap="xl" wrap="wrap" align="flex-start" data-testid="total-estimate">
          {totals.dutyAndVat === null ? (
            <Text size="sm" c="dimmed">
              Duties and taxes at stake, which the guarantee covers: enter the customs value, duty rate and
              VAT rate of the items (the highest rates of the country of departure).
            </Text>
          ) : (
            <Figure
              label="Duties and taxes at stake (the guarantee covers them)"
              value={eur(totals.dutyAndVat)}
              testId="total-at-stake"
              strong
            />
          )}
        </Group>
      )}
      {type === 'import' && (
        <Group gap="xl" wrap="wrap" align="flex-start" data-testid="total-estimate">
          {totals.dutyAndVat === null ? (
            <Text size="sm" c="dimmed">
              Duty and VAT estimate: enter the customs value, duty rate and VAT rate of the items.
            </Text>
          ) : (
            <>
              <Figure label="Duty (estimate)" value={eur(totals.duty ?? '0')} testId="total-duty" />
              <Figure
                label="VAT base (estimate)"
                value={eur(totals.vatBase ?? '0')}
                testId="total-vat-base"
              />
              <Figure label="Import VAT (estimate)" value={eur(totals.vat ?? '0')} testId="total-vat" />
              <Figure
                label="Duty + VAT (estimate)"
                value={eur(totals.dutyAndVat)}
                testId="total-duty-and-vat"
                strong
              />
            </>
          )}
        </Group>
      )}
    </Stack>
  );
}
