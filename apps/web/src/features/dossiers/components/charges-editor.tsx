import {
  BASE_CURRENCY,
  chargeLinesSchema,
  type Dossier,
  multiplyDecimal,
  subtractDecimal,
  sumDecimal,
} from '@fvg/contracts';
import { ActionIcon, Badge, Button, Group, ScrollArea, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconMinus, IconPlus, IconTrash } from '@tabler/icons-react';
import { useFieldArray, useForm, useWatch } from 'react-hook-form';
import { LookupField, SelectField, TextField } from '../../../components/records/form-fields.tsx';
import {
  contractResolver,
  RecordFormShell,
  useRecordBase,
  useRecordSubmit,
  useUnsavedChangesGuard,
} from '../../../components/records/record-form.tsx';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { useSaveCharges } from '../api/dossiers-api.ts';
import { DOSSIER_FIELD_LABELS } from './dossier-meta.ts';

export interface ChargeFormValue {
  kind: 'cost' | 'revenue';
  chargeCode: string;
  description: string;
  partyId: string;
  amount: string;
  currency: string;
  exchangeRate: string;
}

interface ChargesFormValues {
  charges: ChargeFormValue[];
}

const KIND_OPTIONS = [
  { value: 'cost', label: 'Cost' },
  { value: 'revenue', label: 'Revenue' },
];

const DECIMAL = /^-?\d{1,12}(\.\d+)?$/;
const eur = (amount: string) => formatMoney(amount as `${number}`, { currency: BASE_CURRENCY });

/** A line in the base currency, or null while its amount or rate is not a number yet. */
export function baseAmountOf(line: Pick<ChargeFormValue, 'amount' | 'exchangeRate'>): string | null {
  const amount = line.amount.trim();
  const rate = line.exchangeRate.trim() || '1';
  if (!DECIMAL.test(amount) || !DECIMAL.test(rate)) return null;
  return multiplyDecimal(amount, rate, 2);
}

/** Cost, revenue and profit in the base currency, exactly (decimal strings, never floats). */
export function chargeTotals(lines: readonly Pick<ChargeFormValue, 'kind' | 'amount' | 'exchangeRate'>[]) {
  const base = (kind: string) => lines.filter((l) => l.kind === kind).flatMap((l) => baseAmountOf(l) ?? []);
  const cost = sumDecimal(base('cost'));
  const revenue = sumDecimal(base('revenue'));
  return { cost, revenue, profit: subtractDecimal(revenue, cost) };
}

const newLine = (kind: ChargeFormValue['kind']): ChargeFormValue => ({
  kind,
  chargeCode: '',
  description: '',
  partyId: '',
  amount: '',
  currency: BASE_CURRENCY,
  exchangeRate: '1',
});

function valuesOf(dossier: Dossier): ChargesFormValues {
  return {
    charges: dossier.charges.map((c) => ({
      kind: c.kind,
      chargeCode: c.chargeCode,
      description: c.description,
      partyId: c.party?.id ?? '',
      amount: c.amount,
      currency: c.currency,
      exchangeRate: c.exchangeRate,
    })),
  };
}

const chargesInput = (values: ChargesFormValues) => ({
  charges: values.charges.map((c) => ({ ...c, partyId: c.partyId === '' ? null : c.partyId })),
});
const chargesSchema = chargeLinesSchema;
const resolver = contractResolver<ChargesFormValues>(chargesSchema, chargesInput);

function Totals({ cost, revenue, profit }: { cost: string; revenue: string; profit: string }) {
  return (
    <Group gap="xl" justify="flex-end" data-testid="charges-totals">
      <Text size="sm">
        Cost{' '}
        <Text span fw={600} data-testid="charges-total-cost">
          {eur(cost)}
        </Text>
      </Text>
      <Text size="sm">
        Revenue{' '}
        <Text span fw={600} data-testid="charges-total-revenue">
          {eur(revenue)}
        </Text>
      </Text>
      <Text size="sm">
        Profit{' '}
        <Text span fw={700} c={profit.startsWith('-') ? 'red' : 'green'} data-testid="charges-profit">
          {eur(profit)}
        </Text>
      </Text>
    </Group>
  );
}

/** The job costing read-only: lines and the server's totals. */
export function ChargesView({ dossier }: { dossier: Dossier }) {
  return (
    <Stack gap="md" data-testid="charges-view">
      {dossier.charges.length === 0 ? (
        <Text c="dimmed">No charges recorded.</Text>
      ) : (
        <Table striped withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Kind</Table.Th>
              <Table.Th>Code</Table.Th>
              <Table.Th>Description</Table.Th>
              <Table.Th>Party</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
              <Table.Th ta="right">Rate</Table.Th>
              <Table.Th ta="right">{BASE_CURRENCY}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {dossier.charges.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>
                  <Badge variant="light" color={c.kind === 'cost' ? 'orange' : 'teal'}>
                    {c.kind}
                  </Badge>
                </Table.Td>
                <Table.Td>{c.chargeCode}</Table.Td>
                <Table.Td>{c.description}</Table.Td>
                <Table.Td>{c.party?.name ?? '—'}</Table.Td>
                <Table.Td ta="right">
                  {formatMoney(c.amount as `${number}`, { currency: c.currency })}
                </Table.Td>
                <Table.Td ta="right">{c.exchangeRate}</Table.Td>
                <Table.Td ta="right">{eur(c.baseAmount)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Totals
        cost={dossier.costTotal ?? '0'}
        revenue={dossier.revenueTotal ?? '0'}
        profit={subtractDecimal(dossier.revenueTotal ?? '0', dossier.costTotal ?? '0')}
      />
    </Stack>
  );
}

export interface ChargesEditorProps {
  dossier: Dossier;
  dossierKey: string;
  partyLookup: LookupSource;
  reload: () => Promise<Dossier | undefined>;
  /** Navigations that keep the editor on screen. */
  keepsForm?: (next: { pathname: string; search: Record<string, unknown> }) => boolean;
}

/**
 * Staff edit the job costing as lines (kind, code, description, party, amount, currency, rate);
 * totals follow as they type, in the base currency. Saving replaces all lines at once (PUT), with
 * the dossier's version.
 */
export function ChargesEditor({ dossier, dossierKey, partyLookup, reload, keepsForm }: ChargesEditorProps) {
  const form = useForm<ChargesFormValues>({ resolver, defaultValues: valuesOf(dossier) });
  const lines = useFieldArray({ control: form.control, name: 'charges' });
  const watched = useWatch({ control: form.control, name: 'charges' }) ?? [];
  const totals = chargeTotals(watched);
  const save = useSaveCharges(dossierKey);
  const guard = useUnsavedChangesGuard(form.formState.isDirty, keepsForm);
  const base = useRecordBase(form, dossier, valuesOf);

  const submit = useRecordSubmit(form, async (values) => {
    const body = chargesSchema.parse(chargesInput(values));
    const saved = await save.mutateAsync({
      id: dossier.id,
      body: { ...body, version: base.version ?? dossier.version },
    });
    guard.release();
    base.restart(saved);
  });

  return (
    <>
      <RecordFormShell
        form={form}
        submit={submit}
        submitLabel="Save charges"
        label={`Charges of dossier ${dossier.number}`}
        testId="charges-form"
        fieldLabels={DOSSIER_FIELD_LABELS}
        onReload={async () => {
          const fresh = await reload();
          return fresh ? base.reapply(fresh) : undefined;
        }}
        {...(form.formState.isDirty ? { onCancel: () => form.reset() } : {})}
      >
        <Stack gap="sm">
          <ScrollArea type="auto">
            <Table miw={960} verticalSpacing={4} data-testid="charges-lines">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={124}>Kind</Table.Th>
                  <Table.Th w={90}>Code</Table.Th>
                  <Table.Th>Description</Table.Th>
                  <Table.Th w={170}>Party</Table.Th>
                  <Table.Th w={110}>Amount</Table.Th>
                  <Table.Th w={76}>Currency</Table.Th>
                  <Table.Th w={90}>Rate</Table.Th>
                  <Table.Th w={110} ta="right">
                    {BASE_CURRENCY}
                  </Table.Th>
                  <Table.Th w={40} />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {lines.fields.map((line, index) => {
                  const base = watched[index] ? baseAmountOf(watched[index]) : null;
                  return (
                    <Table.Tr key={line.id} data-testid={`charge-${index}`} style={{ verticalAlign: 'top' }}>
                      <Table.Td>
                        <SelectField
                          form={form}
                          name={`charges.${index}.kind`}
                          aria-label="Kind"
                          data={KIND_OPTIONS}
                          allowDeselect={false}
                        />
                      </Table.Td>
                      <Table.Td>
                        <TextField
                          form={form}
                          name={`charges.${index}.chargeCode`}
                          aria-label="Charge code"
                          placeholder="FRT"
                          transform={(v) => v.toUpperCase()}
                        />
                      </Table.Td>
                      <Table.Td>
                        <TextField
                          form={form}
                          name={`charges.${index}.description`}
                          aria-label="Description"
                        />
                      </Table.Td>
                      <Table.Td>
                        <LookupField
                          form={form}
                          name={`charges.${index}.partyId`}
                          aria-label="Party"
                          source={partyLookup}
                          knownOption={(() => {
                            const party = dossier.charges[index]?.party;
                            return party ? { value: party.id, label: `${party.name} (${party.code})` } : null;
                          })()}
                        />
                      </Table.Td>
                      <Table.Td>
                        <TextField
                          form={form}
                          name={`charges.${index}.amount`}
                          aria-label="Amount"
                          inputMode="decimal"
                          placeholder="0.00"
                        />
                      </Table.Td>
                      <Table.Td>
                        <TextField
                          form={form}
                          name={`charges.${index}.currency`}
                          aria-label="Currency"
                          maxLength={3}
                          transform={(v) => v.toUpperCase()}
                        />
                      </Table.Td>
                      <Table.Td>
                        <TextField
                          form={form}
                          name={`charges.${index}.exchangeRate`}
                          aria-label="Exchange rate"
                          inputMode="decimal"
                        />
                      </Table.Td>
                      <Table.Td ta="right" pt={10}>
                        <Text size="sm" data-testid={`charge-${index}-base`}>
                          {base === null ? '—' : eur(base)}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Tooltip label="Remove line">
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            mt={4}
                            onClick={() => lines.remove(index)}
                            aria-label={`Remove line ${index + 1}`}
                            data-testid={`remove-charge-${index}`}
                          >
                            <IconTrash size={16} aria-hidden />
                          </ActionIcon>
                        </Tooltip>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </ScrollArea>
          {lines.fields.length === 0 && (
            <Text size="sm" c="dimmed">
              No charges yet. Add the costs (carrier, terminal, customs…) and the revenue billed to the
              customer.
            </Text>
          )}
          <Group justify="space-between" wrap="wrap">
            <Group gap="xs">
              <Button
                variant="light"
                size="xs"
                color="orange"
                leftSection={<IconMinus size={14} aria-hidden />}
                onClick={() => lines.append(newLine('cost'))}
                data-testid="add-cost"
              >
                Add cost
              </Button>
              <Button
                variant="light"
                size="xs"
                color="teal"
                leftSection={<IconPlus size={14} aria-hidden />}
                onClick={() => lines.append(newLine('revenue'))}
                data-testid="add-revenue"
              >
                Add revenue
              </Button>
            </Group>
            <Totals {...totals} />
          </Group>
        </Stack>
      </RecordFormShell>
      {guard.dialog}
    </>
  );
}
