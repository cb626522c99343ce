import { INCOTERMS_2020 } from '@fvg/contracts';
import { SimpleGrid, type SimpleGridProps, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import type { FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';
import { SelectField, TextareaField, TextField } from './form-fields.tsx';

/*
 * The field blocks of a movement of goods, shared by the dossier, the offer and the booking: the route
 * (origin and destination UN/LOCODEs), the Incoterm with its place, and the cargo. The form's values
 * name the fields as the contracts do; the labels are the area's own.
 */

type Holding<K extends string> = FieldValues & Record<K, string>;
interface BlockProps<K extends string, T extends Holding<K>> {
  form: UseFormReturn<T>;
  /** The area's labels by field name. */
  labels: Readonly<Partial<Record<K, string>>>;
}
const at = <T extends FieldValues>(name: string) => name as FieldPath<T>;
const upper = (value: string) => value.toUpperCase();

export const INCOTERM_OPTIONS = INCOTERMS_2020.map((t) => ({ value: t, label: t }));

type RouteKey = 'originLocode' | 'destinationLocode';

/** Origin and destination as UN/LOCODEs (upper case, five characters). */
export function RouteFields<T extends Holding<RouteKey>>({
  form,
  labels,
  examples,
  required = false,
}: BlockProps<RouteKey, T> & {
  /** Placeholders of the two (e.g. NLRTM, CNSHA), the format then said under them; none: "UN/LOCODE" as placeholder. */
  examples?: readonly [string, string];
  required?: boolean;
}) {
  const locode = (name: RouteKey, example: string | undefined) => (
    <TextField
      form={form}
      name={at<T>(name)}
      label={labels[name]}
      placeholder={example ?? 'UN/LOCODE'}
      maxLength={5}
      transform={upper}
      {...(required ? { required } : {})}
      {...(example ? { hint: 'UN/LOCODE' } : {})}
    />
  );
  return (
    <>
      {locode('originLocode', examples?.[0])}
      {locode('destinationLocode', examples?.[1])}
    </>
  );
}

type IncotermKey = 'incoterm' | 'incotermPlace';

/** The Incoterm (2020) and the place it names. */
export function IncotermFields<T extends Holding<IncotermKey>>({ form, labels }: BlockProps<IncotermKey, T>) {
  return (
    <>
      <SelectField
        form={form}
        name={at<T>('incoterm')}
        label={labels.incoterm}
        data={INCOTERM_OPTIONS}
        clearable
        searchable
      />
      <TextField form={form} name={at<T>('incotermPlace')} label={labels.incotermPlace} />
    </>
  );
}

type CargoKey = 'cargoDescription' | 'packages' | 'packageType' | 'grossWeightKg' | 'volumeM3';

/** What is carried: the description, then packages, their type, gross weight and volume (and `children`). */
export function CargoFields<T extends Holding<CargoKey>>({
  form,
  labels,
  cols,
  required = false,
  minRows,
  children,
}: BlockProps<CargoKey, T> & {
  cols: SimpleGridProps['cols'];
  /** Whether the description is required. */
  required?: boolean;
  minRows?: number;
  /** More cargo fields after the volume. */
  children?: ReactNode;
}) {
  return (
    <Stack gap="sm">
      <TextareaField
        form={form}
        name={at<T>('cargoDescription')}
        label={labels.cargoDescription}
        {...(required ? { required } : {})}
        maxLength={2000}
        {...(minRows ? { minRows } : {})}
      />
      <SimpleGrid cols={cols} spacing="sm">
        <TextField form={form} name={at<T>('packages')} label={labels.packages} inputMode="numeric" />
        <TextField form={form} name={at<T>('packageType')} label={labels.packageType} placeholder="pallets" />
        <TextField
          form={form}
          name={at<T>('grossWeightKg')}
          label={labels.grossWeightKg}
          inputMode="decimal"
        />
        <TextField form={form} name={at<T>('volumeM3')} label={labels.volumeM3} inputMode="decimal" />
        {children}
      </SimpleGrid>
    </Stack>
  );
}
