/**
 * The record-form framework in one import (ADR 0059): `useRecordForm` + `RecordForm` and the wiring
 * type a form's props extend, the fields, the field blocks and the lookups the pickers read. A
 * record form imports from here; the pieces underneath stay in their own modules.
 */
export * from './address-fields.tsx';
export * from './cargo-fields.tsx';
export * from './form-fields.tsx';
export { RecordForm, type RecordFormWiring, useRecordForm } from './record-form.tsx';
export type { LookupOption, LookupSource } from './record-select.tsx';
