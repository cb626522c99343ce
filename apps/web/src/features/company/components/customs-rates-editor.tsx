import {
  addMonths,
  type CustomsRate,
  customsMonthOf,
  divideDecimal,
  isDecimal,
  monthName,
  trimDecimal,
} from '@fvg/contracts';
import {
  ActionIcon,
  Button,
  Group,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { RecordQueryState } from '../../../components/records/record-load-state.tsx';
import { isApiError, problemMessage } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { customsRatesOptions, useSaveCustomsRate } from '../api/company-api.ts';

/** Units of the currency per euro, as the Commission publishes the rate (4 decimals), for a cross-check. */
function unitsPerEuro(rate: string): string | null {
  return isDecimal(rate) && Number(rate) > 0 ? trimDecimal(divideDecimal('1', rate, 4)) : null;
}

/** A field's message from a failed save (the API's field errors by name), else the problem's sentence. */
function errorOf(error: unknown, field: 'rate' | 'currency'): string | null {
  if (!error) return null;
  if (isApiError(error)) {
    const own = error.fieldErrors.find((e) => e.field === field);
    if (own) return own.message;
    if (error.fieldErrors.length) return null;
  }
  return field === 'rate' ? problemMessage(error) : null;
}

type Save = ReturnType<typeof useSaveCustomsRate>;

/** One currency's rate of the month: typed, saved with Enter or Save; removed with the bin. */
function RateRow({ currency, rate, save }: { currency: string; rate: CustomsRate | null; save: Save }) {
  const [value, setValue] = useState(rate?.rate ?? '');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const changed = value.trim() !== (rate?.rate ?? '') && value.trim() !== '';
  const run = async (next: string | null) => {
    setBusy(true);
    setError(null);
    try {
      await save.mutateAsync({ currency, rate: next });
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (changed) void run(value.trim());
  };
  const units = unitsPerEuro(value.trim());
  return (
    <Table.Tr data-testid={`customs-rate-${currency}`}>
      <Table.Td fw={600}>{currency}</Table.Td>
      <Table.Td>
        <form onSubmit={submit} id={`customs-rate-form-${currency}`}>
          <TextInput
            aria-label={`EUR per 1 ${currency}`}
            placeholder="e.g. 0.9249"
            inputMode="decimal"
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
            error={errorOf(error, 'rate') ?? errorOf(error, 'currency')}
            w={130}
          />
        </form>
      </Table.Td>
      <Table.Td c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {units ? `${units} ${currency}` : '–'}
      </Table.Td>
      <Table.Td c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {rate
          ? `${formatDate(rate.updatedAt)}${rate.updatedBy ? `, ${rate.updatedBy}` : ''}`
          : 'Not entered yet'}
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          {(changed || busy) && (
            <Button type="submit" form={`customs-rate-form-${currency}`} size="xs" loading={busy}>
              Save
            </Button>
          )}
          {rate && (
            <Tooltip label={`Remove the ${currency} rate of this month`}>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Remove the ${currency} rate`}
                onClick={() => void run(null)}
                disabled={busy}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** A currency the month has no rate for yet, added with its rate. */
function AddRate({ save, have }: { save: Save; have: readonly string[] }) {
  const [currency, setCurrency] = useState('');
  const [rate, setRate] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [own, setOwn] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setOwn(null);
    const code = currency.trim().toUpperCase();
    if (!/^[A-Z]{3}$/.test(code)) return setOwn('Enter a 3-letter ISO 4217 currency, e.g. USD');
    if (have.includes(code)) return setOwn(`${code} is in the table already: change it there`);
    try {
      await save.mutateAsync({ currency: code, rate: rate.trim() });
      setCurrency('');
      setRate('');
    } catch (e) {
      setError(e);
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} data-testid="customs-rate-add">
      <Group align="flex-start" gap="sm">
        <TextInput
          label="Currency"
          placeholder="e.g. GBP"
          maxLength={3}
          value={currency}
          onChange={(e) => setCurrency(e.currentTarget.value.toUpperCase())}
          error={own ?? errorOf(error, 'currency')}
          w={120}
        />
        <TextInput
          label="EUR per unit"
          placeholder="e.g. 1.1820"
          inputMode="decimal"
          value={rate}
          onChange={(e) => setRate(e.currentTarget.value)}
          error={errorOf(error, 'rate')}
          w={160}
        />
        <Button type="submit" mt={25} variant="light" loading={save.isPending}>
          Add rate
        </Button>
      </Group>
    </form>
  );
}

/**
 * The company's customs exchange rates, a month at a time (UCC art. 53; ADR 0070): what the month's
 * declarations are converted at. Staff enter each month's published rates; the currencies of the month
 * before that have no rate yet stand as empty rows to fill in.
 */
export function CustomsRatesEditor({ initialMonth }: { initialMonth?: string }) {
  const current = customsMonthOf();
  const [month, setMonth] = useState(initialMonth ?? current);
  const rates = useQuery(customsRatesOptions(month));
  const save = useSaveCustomsRate(month);
  const data = rates.data?.month === month ? rates.data : undefined;

  return (
    <Stack gap="md" data-testid="customs-rates">
      <Group justify="space-between" wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          <ActionIcon
            variant="default"
            aria-label="Previous month"
            onClick={() => setMonth(addMonths(month, -1))}
          >
            <IconChevronLeft size={16} />
          </ActionIcon>
          <Title order={3} size="h4" miw={170} ta="center" data-testid="customs-rates-month">
            {monthName(month)}
          </Title>
          <ActionIcon variant="default" aria-label="Next month" onClick={() => setMonth(addMonths(month, 1))}>
            <IconChevronRight size={16} />
          </ActionIcon>
        </Group>
        {month !== current && (
          <Button variant="subtle" size="xs" onClick={() => setMonth(current)}>
            This month
          </Button>
        )}
      </Group>
      <Text size="sm">
        EUR per unit of each currency, as published for the month. Declarations lodged in {monthName(month)}{' '}
        are converted at these rates, and lodging refuses another rate.
      </Text>
      {!data ? (
        <RecordQueryState query={rates} title="The customs rates could not be loaded" skeleton={[36, 120]} />
      ) : (
        <>
          {data.rates.length + data.missingFromLastMonth.length === 0 ? (
            <Text c="dimmed" data-testid="customs-rates-empty">
              No rates for {monthName(month)} yet: add each currency your declarations use.
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={600}>
              <Table verticalSpacing="xs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Currency</Table.Th>
                    <Table.Th>EUR per unit</Table.Th>
                    <Table.Th>Per euro</Table.Th>
                    <Table.Th>Last changed</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.rates.map((r) => (
                    <RateRow
                      key={`${month}-${r.currency}-${r.rate}`}
                      currency={r.currency}
                      rate={r}
                      save={save}
                    />
                  ))}
                  {data.missingFromLastMonth.map((c) => (
                    <RateRow key={`${month}-${c}-missing`} currency={c} rate={null} save={save} />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          <AddRate save={save} have={[...data.rates.map((r) => r.currency), ...data.missingFromLastMonth]} />
        </>
      )}
    </Stack>
  );
}
