import type { ComboboxItem } from '@mantine/core';
import type { FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';
import { COUNTRY_OPTIONS } from '../../lib/countries.ts';
import { SelectField, TextField } from './form-fields.tsx';

/*
 * The field blocks of an organisation (a party, the company itself): its address, country, tax ids
 * and Peppol endpoint. Each block is a run of inputs to place in the form's grid; the form's values
 * name the fields as the contracts do (street, postalCode, city, countryCode, vatNumber, eori…).
 */

/** A form whose values hold these text fields. */
type Holding<K extends string> = FieldValues & Record<K, string>;
interface BlockProps<K extends string, T extends Holding<K>> {
  form: UseFormReturn<T>;
}
const at = <T extends FieldValues>(name: string) => name as FieldPath<T>;
const upper = (value: string) => value.toUpperCase();

/** Street, postal code and city. */
export function AddressFields<T extends Holding<'street' | 'postalCode' | 'city'>>({
  form,
}: BlockProps<'street' | 'postalCode' | 'city', T>) {
  return (
    <>
      <TextField form={form} name={at<T>('street')} label="Street" />
      <TextField form={form} name={at<T>('postalCode')} label="Postal code" />
      <TextField form={form} name={at<T>('city')} label="City" />
    </>
  );
}

/** The country (ISO code), required. */
export function CountryField<T extends Holding<'countryCode'>>({ form }: BlockProps<'countryCode', T>) {
  return (
    <SelectField
      form={form}
      name={at<T>('countryCode')}
      label="Country"
      data={COUNTRY_OPTIONS}
      searchable
      required
    />
  );
}

/** The VAT number (its check digits verified by the contract) and the EORI number. */
export function TaxIdFields<T extends Holding<'vatNumber' | 'eori'>>({
  form,
  eoriLabel = 'EORI',
}: BlockProps<'vatNumber' | 'eori', T> & { eoriLabel?: string }) {
  return (
    <>
      <TextField
        form={form}
        name={at<T>('vatNumber')}
        label="VAT number"
        transform={upper}
        hint="e.g. NL004495445B01; its check digits are verified"
      />
      <TextField
        form={form}
        name={at<T>('eori')}
        label={eoriLabel}
        transform={upper}
        hint="e.g. NL123456789"
      />
    </>
  );
}

/**
 * Where e-invoices go: the Peppol scheme and the endpoint id in it, named alike on every record that
 * has one (the company, a party) and as the field messages name them.
 */
export function PeppolFields<T extends Holding<'peppolScheme' | 'peppolId'>>({
  form,
  schemes,
  idHint,
  searchable = false,
}: BlockProps<'peppolScheme' | 'peppolId', T> & {
  schemes: readonly ComboboxItem[];
  /** What the endpoint id is on this record, e.g. "a KvK number". */
  idHint: string;
  /** A long list of schemes (every EAS code) is searched by typing. */
  searchable?: boolean;
}) {
  return (
    <>
      <SelectField
        form={form}
        name={at<T>('peppolScheme')}
        label="Peppol scheme"
        data={schemes}
        {...(searchable ? { searchable } : {})}
        clearable
      />
      <TextField form={form} name={at<T>('peppolId')} label="Peppol endpoint id" hint={idHint} />
    </>
  );
}
