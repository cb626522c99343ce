import {
  type Apportionment,
  type BuildUpLine,
  CATEGORIES_OF_TYPE,
  commodityCodeProblem,
  compareDecimal,
  customsValueBuildUp,
  customsValueFromInvoice,
  type DeclarationCategory,
  type DeclarationItem,
  type DeclarationItemInput,
  type DeclarationType,
  declarationTotals,
  formatCommodityCode,
  hasAdjustments,
  isCountryCode,
  isDecimal,
  type LodgingInput,
  lodgingProblems,
  mrnProblem,
  normalizeCommodityCode,
  PACKAGE_KIND_LABELS,
  preferenceProblem,
  procedureCodeProblem,
  supplementaryUnitOf,
  VALUATION_METHOD_LABELS,
  type ValuationAdjustments,
} from '@fvg/contracts';
import { Anchor, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useEffect, useMemo, useRef } from 'react';
import { type UseFormReturn, useForm, useWatch } from 'react-hook-form';
import {
  SelectField,
  TagsField,
  TextareaField,
  TextField,
} from '../../../components/records/form-fields.tsx';
import { type LineColumn, LineItemsEditor } from '../../../components/records/line-items-editor.tsx';
import { DecimalField, MoneyField } from '../../../components/records/money-field.tsx';
import { RowListField } from '../../../components/records/row-list-field.tsx';
import { countryName } from '../../../lib/countries.ts';
import { formatMoney, formatNumber } from '../../../lib/format.ts';
import { DataElementLabel } from './data-element-label.tsx';
import {
  PACKAGE_KIND_OPTIONS,
  PREVIOUS_DOCUMENT_OPTIONS,
  SUPPORTING_DOCUMENT_OPTIONS,
  VALUATION_METHOD_OPTIONS,
} from './declaration-meta.ts';
import { DeclarationTotals } from './declaration-totals.tsx';
import { estimateOf, ItemCalculation } from './item-calculation.tsx';

/*
 * The goods items of a declaration (SAD boxes 31–47): the shared line editor (ADR 0025) with a row of
 * the essentials per item and, opened from the row, the item's other fields and its duty and VAT
 * calculation. The component is controlled (value / onChange) so the record form owns the items like
 * any other field; inside, a small react-hook-form form drives the shared inputs, which is what the
 * line editor and the money inputs bind to. Problems a user can see while typing (commodity code,
 * procedure code, preference, net above gross, an export MRN) show at once; the server's `items.N.field`
 * errors land on the same cells.
 */

export interface DocumentRefValue {
  type: string;
  reference: string;
}

/** One item as its inputs hold it: text throughout ('' for empty), decimals as the API takes them. */
export interface ItemFormValue extends Record<string, unknown> {
  commodityCode: string;
  description: string;
  countryOfOrigin: string;
  preference: string;
  procedureCode: string;
  /** DE 1/11, 3 characters each. */
  additionalProcedureCodes: string[];
  /** DE 4/16, import: '1'–'6'. */
  valuationMethod: string;
  /** Why not the transaction value (methods 2–6). */
  valuationReason: string;
  /** DE 6/2, in the unit the commodity code asks for. */
  supplementaryUnits: string;
  packages: string;
  packageKind: string;
  marks: string;
  grossMassKg: string;
  netMassKg: string;
  /** In the declaration's currency. */
  invoiceValue: string;
  /** EUR. */
  customsValue: string;
  statisticalValue: string;
  dutyRate: string;
  vatRate: string;
  /** Costs to the first destination in the Union (EUR), part of the import VAT base. */
  vatCosts: string;
  containers: string[];
  supportingDocuments: DocumentRefValue[];
  previousDocuments: DocumentRefValue[];
}

export function emptyItem(): ItemFormValue {
  return {
    commodityCode: '',
    description: '',
    countryOfOrigin: '',
    preference: '',
    procedureCode: '',
    additionalProcedureCodes: [],
    valuationMethod: '',
    valuationReason: '',
    supplementaryUnits: '',
    packages: '',
    packageKind: '',
    marks: '',
    grossMassKg: '',
    netMassKg: '',
    invoiceValue: '',
    customsValue: '',
    statisticalValue: '',
    dutyRate: '',
    vatRate: '',
    vatCosts: '',
    containers: [],
    supportingDocuments: [],
    previousDocuments: [],
  };
}

const text = (value: string | number | null | undefined) =>
  value === null || value === undefined ? '' : String(value);
const orNull = (value: string) => (value.trim() === '' ? null : value.trim());
const refs = (list: readonly DocumentRefValue[]) =>
  list
    .map((d) => ({ type: d.type, reference: d.reference.trim() }))
    .filter((d) => d.type !== '' || d.reference !== '');

/** A saved item as the editor holds it. */
export function itemFromContract(item: DeclarationItem): ItemFormValue {
  return {
    commodityCode: text(item.commodityCode),
    description: text(item.description),
    countryOfOrigin: text(item.countryOfOrigin),
    preference: text(item.preference),
    procedureCode: text(item.procedureCode),
    additionalProcedureCodes: [...item.additionalProcedureCodes],
    valuationMethod: text(item.valuationMethod),
    valuationReason: text(item.valuationReason),
    supplementaryUnits: text(item.supplementaryUnits),
    packages: text(item.packages),
    packageKind: text(item.packageKind),
    marks: text(item.marks),
    grossMassKg: text(item.grossMassKg),
    netMassKg: text(item.netMassKg),
    invoiceValue: text(item.invoiceValue),
    customsValue: text(item.customsValue),
    statisticalValue: text(item.statisticalValue),
    dutyRate: text(item.dutyRate),
    vatRate: text(item.vatRate),
    vatCosts: text(item.vatCosts),
    containers: [...item.containers],
    supportingDocuments: item.supportingDocuments.map((d: DocumentRefValue) => ({ ...d })),
    previousDocuments: item.previousDocuments.map((d: DocumentRefValue) => ({ ...d })),
  };
}

/**
 * The item as the API takes it ('' → null). Text that does not read (a package count of 'two') is sent as typed so the contract refuses it with
 * its field, rather than being dropped here.
 */
export function itemToInput(v: ItemFormValue): DeclarationItemInput {
  const packages = v.packages.trim();
  return {
    commodityCode: orNull(normalizeCommodityCode(v.commodityCode)),
    description: orNull(v.description),
    countryOfOrigin: orNull(v.countryOfOrigin),
    preference: orNull(v.preference),
    procedureCode: orNull(v.procedureCode),
    additionalProcedureCodes: v.additionalProcedureCodes.map((c) => c.trim().toUpperCase()).filter(Boolean),
    valuationMethod: orNull(v.valuationMethod),
    valuationReason: orNull(v.valuationReason),
    supplementaryUnits: orNull(v.supplementaryUnits),
    packages:
      packages === '' ? null : /^\d+$/.test(packages) ? Number(packages) : (packages as unknown as number),
    packageKind: orNull(v.packageKind),
    marks: orNull(v.marks),
    grossMassKg: orNull(v.grossMassKg),
    netMassKg: orNull(v.netMassKg),
    invoiceValue: orNull(v.invoiceValue),
    customsValue: orNull(v.customsValue),
    statisticalValue: orNull(v.statisticalValue),
    dutyRate: orNull(v.dutyRate),
    vatRate: orNull(v.vatRate),
    vatCosts: orNull(v.vatCosts),
    containers: v.containers.map((c) => c.trim().toUpperCase()).filter(Boolean),
    supportingDocuments: refs(v.supportingDocuments),
    previousDocuments: refs(v.previousDocuments),
  } as DeclarationItemInput;
}

/** A decimal that reads, or null (empty or still being typed): what the live figures take. */
const decimal = (value: string): string | null => {
  const v = value.trim();
  return v !== '' && isDecimal(v) ? v : null;
};

/** Live totals of the items as they stand (contracts' declarationTotals, the API's arithmetic). */
export function liveTotals(type: DeclarationType, items: readonly ItemFormValue[]) {
  // Text still being typed counts as missing, as in the estimate.
  return declarationTotals(type, items);
}

/** The declaration currency and its rate to EUR as the customs-value hint reads them (EUR: 1). */
function rateToEur(currency: string | null, exchangeRate: string | null): string | null {
  if (!currency) return null;
  if (currency === 'EUR') return '1';
  const rate = exchangeRate?.trim() ?? '';
  return rate !== '' && isDecimal(rate) && compareDecimal(rate, '0') > 0 ? rate : null;
}

/**
 * What a user can be told while typing, keyed like the server's errors (`items.2.netMassKg`). The
 * commodity code is judged once it is long enough to be whole (or holds something other than digits),
 * not at its first digit.
 */
export function itemProblems(
  type: DeclarationType,
  items: readonly ItemFormValue[],
  /** Whether the user has left the field (then a short code is judged too). */
  left: (index: number, field: string) => boolean = () => false,
  /** The declaration's category (an import is H1 or H2); the type's first when not given. */
  category: DeclarationCategory | undefined = CATEGORIES_OF_TYPE[type][0],
): Record<string, string> {
  const problems: Record<string, string> = {};
  items.forEach((item, index) => {
    const at = (field: string, message: string | undefined) => {
      if (message) problems[`items.${index}.${field}`] = message;
    };
    const code = item.commodityCode.trim();
    if (code !== '' && (code.length >= 8 || /\D/.test(code) || left(index, 'commodityCode')))
      at('commodityCode', commodityCodeProblem(code));
    const procedure = item.procedureCode.trim();
    if (
      procedure !== '' &&
      category &&
      (procedure.length >= 4 || /\D/.test(procedure) || left(index, 'procedureCode'))
    )
      at('procedureCode', procedureCodeProblem(procedure, category));
    const preference = item.preference.trim();
    if (preference !== '' && (preference.length >= 3 || /\D/.test(preference) || left(index, 'preference')))
      at('preference', preferenceProblem(preference));
    const origin = item.countryOfOrigin.trim();
    if (origin.length === 2 && !isCountryCode(origin))
      at('countryOfOrigin', `${origin} is not an ISO country code`);
    const gross = decimal(item.grossMassKg);
    const net = decimal(item.netMassKg);
    if (gross && net && compareDecimal(net, gross) > 0)
      at(
        'netMassKg',
        `The net mass cannot be more than the gross mass (${formatNumber(gross as `${number}`)} kg)`,
      );
    item.previousDocuments.forEach((doc, i) => {
      const reference = doc.reference.trim();
      if (doc.type === 'N830' && reference.length >= 18)
        at(`previousDocuments.${i}.reference`, mrnProblem(reference, 'export'));
    });
  });
  return problems;
}

const QUANTITY_DECIMALS = 3;
const RATE_DECIMALS = 3;
const VAT_RATE_DECIMALS = 2;

const eur = (amount: string) => formatMoney(amount as `${number}`, { currency: 'EUR' });
const withoutSpaces = (typed: string) => typed.replace(/\s/g, '');

/** The row of an item: what identifies it and the figures that add up; the rest opens under it. */
function rowColumns(type: DeclarationType, currency: string | null): LineColumn<ItemFormValue>[] {
  const columns: (LineColumn<ItemFormValue> | false)[] = [
    {
      field: 'commodityCode',
      label: 'Commodity code',
      kind: 'code',
      width: 128,
      maxLength: 16,
      transform: normalizeCommodityCode,
      format: formatCommodityCode,
      placeholder: '8471 30 00',
      required: true,
    },
    {
      field: 'description',
      label: 'Description',
      kind: 'text',
      multiline: true,
      flex: 1,
      minWidth: 160,
      maxLength: 512,
      required: true,
    },
    type !== 'transit' && {
      field: 'countryOfOrigin',
      label: 'Origin',
      kind: 'code',
      maxLength: 2,
      placeholder: 'CN',
      width: 68,
      required: type === 'import',
    },
    type !== 'transit' && {
      field: 'procedureCode',
      label: 'Procedure',
      kind: 'code',
      width: 80,
      maxLength: 4,
      transform: withoutSpaces,
      placeholder: type === 'import' ? '4000' : '1000',
      required: true,
    },
    {
      field: 'packages',
      label: 'Packages',
      kind: 'quantity',
      decimals: 0,
      width: 80,
      wrapBefore: true,
      required: true,
    },
    {
      field: 'grossMassKg',
      label: 'Gross kg',
      kind: 'quantity',
      decimals: QUANTITY_DECIMALS,
      width: 100,
      required: true,
    },
    {
      field: 'netMassKg',
      label: 'Net kg',
      kind: 'quantity',
      decimals: QUANTITY_DECIMALS,
      width: 100,
      required: true,
    },
    // A transit's guarantee covers the duties and taxes at stake, computed from the customs value and
    // rates (the shared lodging rules): its items carry them as an import's do.
    type !== 'export'
      ? {
          field: 'customsValue',
          label: 'Customs value EUR',
          kind: 'money',
          currency: () => 'EUR',
          width: 128,
          required: true,
        }
      : {
          field: 'invoiceValue',
          label: `Invoice value${currency ? ` ${currency}` : ''}`,
          kind: 'money',
          currency: () => currency ?? 'EUR',
          width: 128,
        },
    type !== 'export' && {
      field: 'estimate',
      label: type === 'transit' ? 'At stake' : 'Duty + VAT',
      kind: 'computed',
      width: 108,
      value: (line) => {
        const estimate = estimateOf(line);
        return estimate ? eur(estimate.total) : '—';
      },
    },
  ];
  return columns.filter((c): c is LineColumn<ItemFormValue> => c !== false);
}

/** The item fields the row does not show: the details panel edits them. */
function detailFields(type: DeclarationType): string[] {
  const row = new Set(rowColumns(type, null).map((c) => c.field));
  const all = [
    // A transit item has none; one that holds a code anyway (copied from an import) shows it to be cleared.
    'procedureCode',
    ...(type !== 'transit' ? ['additionalProcedureCodes', 'supplementaryUnits'] : []),
    ...(type === 'import' ? ['valuationMethod', 'valuationReason'] : []),
    'countryOfOrigin',
    'preference',
    'packageKind',
    'marks',
    'containers',
    'invoiceValue',
    'customsValue',
    'statisticalValue',
    ...(type === 'import'
      ? ['dutyRate', 'vatRate', 'vatCosts']
      : type === 'transit'
        ? ['dutyRate', 'vatRate']
        : []),
    'supportingDocuments',
    'previousDocuments',
  ];
  return all.filter((f) => !row.has(f) && !(type === 'transit' && f === 'statisticalValue'));
}

/** The names the details give the fields lodging requires of an item (issue 27 item 5). */
const DETAIL_NAMES: Readonly<Record<string, string>> = {
  additionalProcedureCodes: 'additional procedure',
  valuationMethod: 'valuation method',
  valuationReason: 'why not the transaction value',
  supplementaryUnits: 'supplementary units',
  packageKind: 'kind of packages',
};

/**
 * Per item, the fields of its details that lodging requires and that are still empty: the same rule
 * function the API runs before lodging (ADR 0047), read for its completeness problems only.
 */
export function pendingDetails(
  type: DeclarationType,
  category: DeclarationCategory | undefined,
  items: readonly ItemFormValue[],
  fields: readonly string[],
): Map<number, string[]> {
  const out = new Map<number, string[]>();
  const found = lodgingProblems({ type, category: category ?? null, items } as LodgingInput);
  for (const p of found) {
    const m = /^items\.(\d+)\.([A-Za-z]+)$/.exec(p.field);
    if (!m || (p.code !== 'required' && p.code !== 'valuation-reason')) continue;
    const [, index, field] = m as unknown as [string, string, string];
    const name = DETAIL_NAMES[field];
    if (!name || !fields.includes(field)) continue;
    const names = out.get(Number(index)) ?? [];
    if (!names.includes(name)) names.push(name);
    out.set(Number(index), names);
  }
  return out;
}

export interface DeclarationItemsProps {
  type: DeclarationType;
  /** Which procedure codes the items take (an import H1 or H2); the type's first category when absent. */
  category?: DeclarationCategory;
  /** The declaration's currency (invoice values); null until chosen. */
  currency: string | null;
  /** EUR per unit of the currency (SAD box 23). */
  exchangeRate: string | null;
  value: ItemFormValue[];
  onChange: (value: ItemFormValue[]) => void;
  readOnly: boolean;
  /** The server's errors by field path ('items.0.netMassKg'); others are left to the record form. */
  errors: Record<string, string>;
  /** The live totals under the items (off when the screen shows the saved totals elsewhere). */
  showTotals?: boolean;
  /** An import's additions and deductions and how they are split (the header's; absent: none). */
  valuation?: { adjustments: ValuationAdjustments; apportionment: Apportionment };
}

interface ItemsForm {
  items: ItemFormValue[];
}

export function DeclarationItems({
  type,
  category,
  currency,
  exchangeRate,
  value,
  onChange,
  readOnly,
  errors,
  showTotals = true,
  valuation,
}: DeclarationItemsProps) {
  const form = useForm<ItemsForm>({ defaultValues: { items: value } });
  const watched = (useWatch({ control: form.control, name: 'items' }) ?? []) as ItemFormValue[];

  // The record form's value in, the user's edits out. `synced` is the text of the items both sides
  // last agreed on: our own change coming back is not a reload (a keystroke typed meanwhile would be
  // lost), and a reload is not handed back out as a change.
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const synced = useRef(JSON.stringify(value));
  useEffect(() => {
    const text = JSON.stringify(value);
    if (text === synced.current) return;
    synced.current = text;
    // The server's errors stay: they come with the `errors` prop, not with the items.
    if (text !== JSON.stringify(form.getValues('items'))) form.reset({ items: value }, { keepErrors: true });
  }, [value, form]);
  useEffect(() => {
    const text = JSON.stringify(watched);
    if (text === synced.current) return;
    synced.current = text;
    onChangeRef.current(structuredClone(watched));
  }, [watched]);

  // The server's errors and what is wrong as typed, on their cells (the typed problem is the newer).
  // rhf updates the touched fields in place: their text is what changes.
  const touchedKey = JSON.stringify(form.formState.touchedFields.items ?? []);
  const problems = useMemo(() => {
    const touched = JSON.parse(touchedKey) as (Record<string, unknown> | null)[];
    return itemProblems(type, watched, (index, field) => Boolean(touched[index]?.[field]), category);
  }, [type, watched, touchedKey, category]);
  const shownErrors = useMemo(() => {
    const server = Object.fromEntries(Object.entries(errors).filter(([key]) => /^items\.\d+\./.test(key)));
    return { ...server, ...problems };
  }, [errors, problems]);
  const errorsKey = JSON.stringify(shownErrors);
  useEffect(() => {
    form.clearErrors('items');
    for (const [path, message] of Object.entries(JSON.parse(errorsKey) as Record<string, string>))
      form.setError(path as `items.${number}.commodityCode`, { type: 'server', message });
  }, [errorsKey, form]);
  const listError = errors.items;

  const columns = useMemo(() => rowColumns(type, currency), [type, currency]);
  const fields = useMemo(() => detailFields(type), [type]);
  const pending = useMemo(
    () => pendingDetails(type, category, watched, fields),
    [type, category, watched, fields],
  );
  const rate = rateToEur(currency, exchangeRate);
  // The customs values built from the invoice (UCC art. 70–72), once additions or deductions are entered.
  const lines =
    type === 'import' && valuation && hasAdjustments(valuation.adjustments)
      ? customsValueBuildUp(watched, rate, valuation.adjustments, valuation.apportionment)
      : null;

  return (
    <Stack gap="md" data-testid="declaration-items">
      <LineItemsEditor<ItemsForm, ItemFormValue>
        form={form}
        name="items"
        columns={columns}
        newLine={(previous) => nextItem(type, previous)}
        addActions={[{ label: 'Add item', line: () => nextItem(type, watched[watched.length - 1]) }]}
        readOnly={readOnly}
        itemName="item"
        emptyTitle="No items yet — add the first one"
        emptyHint={readOnly ? undefined : 'Each item is one commodity code: its packages, masses and values.'}
        testId="items"
        reorderable
        details={{
          label: 'details',
          fields,
          pending: (index) => pending.get(index) ?? [],
          render: (index, item) => (
            <ItemDetails
              form={form}
              index={index}
              item={item}
              buildUp={lines?.[index] ?? null}
              apportionment={valuation?.apportionment ?? 'value'}
              type={type}
              currency={currency}
              rate={rate}
              readOnly={readOnly}
              fields={fields}
            />
          ),
        }}
      />
      {listError && (
        <Text size="sm" c="red" role="alert" data-testid="items-list-error">
          {listError}
        </Text>
      )}
      {showTotals && watched.length > 0 && (
        <DeclarationTotals type={type} totals={liveTotals(type, watched)} currency={currency} />
      )}
    </Stack>
  );
}

/**
 * A new item after `previous`, with what items of one consignment usually share; the first of an
 * import or export starts with no additional procedure (000) and an import's at the transaction value
 * (valuation method 1), the usual case the clerk changes where it is not.
 */
export function nextItem(type: DeclarationType, previous: ItemFormValue | undefined): ItemFormValue {
  return {
    ...emptyItem(),
    countryOfOrigin: previous?.countryOfOrigin ?? '',
    procedureCode: previous?.procedureCode ?? '',
    additionalProcedureCodes: previous
      ? [...previous.additionalProcedureCodes]
      : type === 'transit'
        ? []
        : ['000'],
    valuationMethod: previous?.valuationMethod ?? (type === 'import' ? '1' : ''),
    packageKind: previous?.packageKind ?? '',
    vatRate: previous?.vatRate ?? '',
  };
}

interface DetailsProps {
  form: UseFormReturn<ItemsForm>;
  index: number;
  item: ItemFormValue;
  /** The item's customs value built from the invoice, when the header's additions or deductions ask for it. */
  buildUp: BuildUpLine | null;
  apportionment: Apportionment;
  type: DeclarationType;
  currency: string | null;
  rate: string | null;
  readOnly: boolean;
  fields: readonly string[];
}

/** The fields of one item the row has no room for, then its calculation. */
function ItemDetails({
  form,
  index,
  item,
  buildUp,
  apportionment,
  type,
  currency,
  rate,
  readOnly,
  fields,
}: DetailsProps) {
  const path = <F extends keyof ItemFormValue & string>(field: F) => `items.${index}.${field}` as const;
  const has = (field: string) => fields.includes(field);
  const label = (name: string) => `${name}, item ${index + 1}`;
  const invoiceCurrency = currency ?? 'EUR';
  const unit = supplementaryUnitOf(item.commodityCode);
  const unitsLabel = unit ? `Supplementary units (${unit.symbol})` : 'Supplementary units';

  // The invoice value at the declaration's rate: the customs value of an import, the statistical
  // value of an export (the clerk adds the costs to the border and confirms).
  const hint = (() => {
    const invoice = decimal(item.invoiceValue);
    if (readOnly || !invoice || !rate || type === 'transit') return null;
    const amount = customsValueFromInvoice(invoice, rate, '0');
    return type === 'import'
      ? { field: 'customsValue' as const, label: 'Customs value', amount }
      : { field: 'statisticalValue' as const, label: 'Statistical value', amount };
  })();
  // With the consignment's additions or deductions entered, the whole build-up replaces the hint.
  const built = buildUp && type === 'import' ? buildUp : null;

  const readOnlyValue = (field: keyof ItemFormValue & string): ReactNode => {
    const raw = item[field];
    if (Array.isArray(raw)) return raw.length ? raw.join(', ') : '—';
    const v = typeof raw === 'string' ? raw : '';
    if (v === '') return '—';
    switch (field) {
      case 'packageKind':
        return PACKAGE_KIND_LABELS[v as keyof typeof PACKAGE_KIND_LABELS] ?? v;
      case 'valuationMethod':
        return v in VALUATION_METHOD_LABELS
          ? `${v} — ${VALUATION_METHOD_LABELS[v as keyof typeof VALUATION_METHOD_LABELS]}`
          : v;
      case 'supplementaryUnits':
        return isDecimal(v) ? `${formatNumber(v as `${number}`)}${unit ? ` ${unit.symbol}` : ''}` : v;
      case 'countryOfOrigin':
        return `${v} — ${countryName(v)}`;
      case 'invoiceValue':
        return isDecimal(v) ? formatMoney(v as `${number}`, { currency: invoiceCurrency }) : v;
      case 'customsValue':
      case 'statisticalValue':
      case 'vatCosts':
        return isDecimal(v) ? eur(v) : v;
      case 'dutyRate':
      case 'vatRate':
        return isDecimal(v) ? `${formatNumber(v as `${number}`, { maximumFractionDigits: 3 })} %` : v;
      case 'netMassKg':
      case 'grossMassKg':
        return isDecimal(v) ? `${formatNumber(v as `${number}`)} kg` : v;
      default:
        return v;
    }
  };

  const show = (field: keyof ItemFormValue & string, name: string, input: ReactNode) =>
    has(field) ? (
      <div key={field}>
        {readOnly ? (
          <Stack gap={0} data-testid={`item-${index}-${field}`}>
            <Text size="xs" c="dimmed">
              {name}
            </Text>
            <Text size="sm">{readOnlyValue(field)}</Text>
          </Stack>
        ) : (
          input
        )}
      </div>
    ) : null;

  return (
    <Stack gap="sm">
      {/* Three across on a laptop's 1280, four from 1408: the labels fit on a line or two. */}
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3, xl: 4 }} spacing="sm" verticalSpacing="xs">
        {show(
          'preference',
          'Preference',
          <TextField
            form={form}
            name={path('preference')}
            label={<DataElementLabel field="preference">Preference</DataElementLabel>}
            aria-label={label('Preference')}
            maxLength={3}
            placeholder="100"
          />,
        )}
        {item.procedureCode !== '' &&
          show(
            'procedureCode',
            'Procedure code',
            <TextField
              form={form}
              name={path('procedureCode')}
              label={<DataElementLabel field="procedureCode">Procedure code</DataElementLabel>}
              aria-label={label('Procedure code')}
              maxLength={4}
            />,
          )}
        {show(
          'additionalProcedureCodes',
          'Additional procedure',
          <TagsField
            form={form}
            name={path('additionalProcedureCodes')}
            label={<DataElementLabel field="additionalProcedureCodes">Additional procedure</DataElementLabel>}
            aria-label={label('Additional procedure')}
            placeholder={item.additionalProcedureCodes.length ? '' : '000'}
            splitChars={[',', ' ']}
            maxTags={99}
          />,
        )}
        {show(
          'valuationMethod',
          'Valuation method',
          <SelectField
            form={form}
            name={path('valuationMethod')}
            label={<DataElementLabel field="valuationMethod">Valuation method</DataElementLabel>}
            aria-label={label('Valuation method')}
            data={VALUATION_METHOD_OPTIONS}
          />,
        )}
        {item.valuationMethod !== '' &&
          item.valuationMethod !== '1' &&
          show(
            'valuationReason',
            'Why not the transaction value',
            <TextareaField
              form={form}
              name={path('valuationReason')}
              label="Why not the transaction value"
              aria-label={label('Why not the transaction value')}
              minRows={1}
              maxRows={3}
              maxLength={512}
              placeholder="e.g. a sale between related parties whose price the relationship influenced"
            />,
          )}
        {show(
          'supplementaryUnits',
          unitsLabel,
          <DecimalField
            form={form}
            name={path('supplementaryUnits')}
            label={<DataElementLabel field="supplementaryUnits">{unitsLabel}</DataElementLabel>}
            aria-label={label('Supplementary units')}
            decimals={QUANTITY_DECIMALS}
            // Under the input, so the input lines up with its neighbours.
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            description={
              unit
                ? `CN ${formatCommodityCode(normalizeCommodityCode(item.commodityCode)).slice(0, 4)}: ${unit.name}`
                : undefined
            }
          />,
        )}
        {show(
          'countryOfOrigin',
          'Country of origin',
          <TextField
            form={form}
            name={path('countryOfOrigin')}
            label={<DataElementLabel field="countryOfOrigin">Country of origin</DataElementLabel>}
            aria-label={label('Country of origin')}
            maxLength={2}
            transform={(v) => v.toUpperCase()}
            placeholder="CN"
          />,
        )}
        {show(
          'packageKind',
          'Kind of packages',
          <SelectField
            form={form}
            name={path('packageKind')}
            label={<DataElementLabel field="packageKind">Kind of packages</DataElementLabel>}
            aria-label={label('Kind of packages')}
            data={PACKAGE_KIND_OPTIONS}
            searchable
          />,
        )}
        {show(
          'marks',
          'Marks and numbers',
          <TextareaField
            form={form}
            name={path('marks')}
            label={<DataElementLabel field="marks">Marks and numbers</DataElementLabel>}
            aria-label={label('Marks and numbers')}
            minRows={1}
            maxRows={3}
            maxLength={512}
          />,
        )}
        {show(
          'containers',
          'Containers',
          <TagsField
            form={form}
            name={path('containers')}
            label={<DataElementLabel field="containers">Containers</DataElementLabel>}
            aria-label={label('Containers')}
            placeholder="MSCU1234565"
            splitChars={[',', ' ']}
          />,
        )}
        {show(
          'invoiceValue',
          `Invoice value${currency ? ` (${currency})` : ''}`,
          <MoneyField
            form={form}
            name={path('invoiceValue')}
            label={
              <DataElementLabel field="invoiceValue">{`Invoice value${currency ? ` (${currency})` : ''}`}</DataElementLabel>
            }
            aria-label={label('Invoice value')}
            currency={invoiceCurrency}
          />,
        )}
        {show(
          'customsValue',
          'Customs value (EUR)',
          <MoneyField
            form={form}
            name={path('customsValue')}
            label={<DataElementLabel field="customsValue">Customs value (EUR)</DataElementLabel>}
            aria-label={label('Customs value')}
            currency="EUR"
          />,
        )}
        {show(
          'statisticalValue',
          'Statistical value (EUR)',
          <MoneyField
            form={form}
            name={path('statisticalValue')}
            label={<DataElementLabel field="statisticalValue">Statistical value (EUR)</DataElementLabel>}
            aria-label={label('Statistical value')}
            currency="EUR"
          />,
        )}
        {show(
          'dutyRate',
          'Duty rate',
          <DecimalField
            form={form}
            name={path('dutyRate')}
            label={<DataElementLabel field="dutyRate">Duty rate (%)</DataElementLabel>}
            aria-label={label('Duty rate')}
            decimals={RATE_DECIMALS}
          />,
        )}
        {show(
          'vatRate',
          'VAT rate',
          <DecimalField
            form={form}
            name={path('vatRate')}
            label={<DataElementLabel field="vatRate">VAT rate (%)</DataElementLabel>}
            aria-label={label('VAT rate')}
            decimals={VAT_RATE_DECIMALS}
          />,
        )}
        {show(
          'vatCosts',
          'Costs to destination (EUR)',
          <MoneyField
            form={form}
            name={path('vatCosts')}
            label={<DataElementLabel field="vatCosts">Costs to destination (EUR)</DataElementLabel>}
            aria-label={label('Costs to destination')}
            currency="EUR"
          />,
        )}
      </SimpleGrid>

      {built && (
        <Group gap="xs" data-testid={`item-${index}-build-up`}>
          <Text size="sm" c="dimmed">
            Customs value built from the invoice:{' '}
            {formatMoney(built.price as `${number}`, { currency: invoiceCurrency })} ×{' '}
            {formatNumber(built.rate as `${number}`, { maximumFractionDigits: 6 })} = {eur(built.priceEur)} +{' '}
            {eur(built.additions)} additions − {eur(built.deductions)} deductions (by {apportionment}) ={' '}
            <b>{eur(built.customsValue)}</b>
          </Text>
          {!readOnly && item.valuationMethod === '1' && item.customsValue.trim() !== built.customsValue && (
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() => form.setValue(path('customsValue'), built.customsValue, { shouldDirty: true })}
              aria-label={`Use ${eur(built.customsValue)} as the customs value of item ${index + 1}`}
              data-testid={`item-${index}-use-build-up`}
            >
              Use it
            </Anchor>
          )}
        </Group>
      )}
      {hint && !built && (
        <Group gap="xs" data-testid={`item-${index}-value-hint`}>
          <Text size="sm" c="dimmed">
            {hint.label} from the invoice value: {eur(hint.amount)}
            {currency && currency !== 'EUR'
              ? ` (${formatMoney(item.invoiceValue.trim() as `${number}`, { currency })} × ${formatNumber(
                  rate as `${number}`,
                  { maximumFractionDigits: 6 },
                )})`
              : ''}
            {type === 'import' ? ', before transport and insurance to the EU border' : ''}
          </Text>
          {item[hint.field].trim() !== hint.amount && (
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() => form.setValue(path(hint.field), hint.amount, { shouldDirty: true })}
              aria-label={`Use ${eur(hint.amount)} as the ${hint.label.toLowerCase()} of item ${index + 1}`}
              data-testid={`item-${index}-use-value-hint`}
            >
              Use it
            </Anchor>
          )}
        </Group>
      )}

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        {has('supportingDocuments') && (
          <DocumentRefs
            form={form}
            index={index}
            field="supportingDocuments"
            title="Supporting documents"
            options={SUPPORTING_DOCUMENT_OPTIONS}
            readOnly={readOnly}
          />
        )}
        {has('previousDocuments') && (
          <DocumentRefs
            form={form}
            index={index}
            field="previousDocuments"
            title="Previous documents"
            options={PREVIOUS_DOCUMENT_OPTIONS}
            readOnly={readOnly}
            hint={type === 'transit' ? 'Exported goods: N830 with the export MRN' : undefined}
          />
        )}
      </SimpleGrid>

      {type === 'import' && (
        <Stack gap={4}>
          <Title order={3} size="h6">
            Duty and import VAT (estimate)
          </Title>
          <ItemCalculation item={item} testId={`item-${index}-calculation`} />
        </Stack>
      )}
    </Stack>
  );
}

/** Type + reference pairs (SAD box 44 documents, box 40 previous documents). */
function DocumentRefs({
  form,
  index,
  field,
  title,
  options,
  readOnly,
  hint,
}: {
  form: UseFormReturn<ItemsForm>;
  index: number;
  field: 'supportingDocuments' | 'previousDocuments';
  title: string;
  options: readonly { value: string; label: string }[];
  readOnly: boolean;
  hint?: string | undefined;
}) {
  const name = title.toLowerCase().replace(/s$/, '');
  return (
    <RowListField
      form={form}
      name={`items.${index}.${field}`}
      title={title}
      itemName={name}
      context={`, item ${index + 1}`}
      columns={[
        { key: 'type', label: `Type of ${name}`, kind: 'select', options },
        {
          key: 'reference',
          label: `Reference of ${name}`,
          kind: 'text',
          placeholder: 'Reference',
          maxLength: 70,
        },
      ]}
      newRow={() => ({ type: options[0]?.value ?? '', reference: '' })}
      describe={(doc) =>
        `${options.find((o) => o.value === doc.type)?.label ?? doc.type}: ${doc.reference || '—'}`
      }
      readOnly={readOnly}
      hint={hint}
      testIds={{
        list: `item-${index}-${field}`,
        add: `add-${field}-${index}`,
        remove: (i) => `remove-${field}-${index}-${i}`,
      }}
    />
  );
}
