import {
  type DcsaEvent,
  dcsaEventSchema,
  EQUIPMENT_EVENT_TYPE_CODES,
  EQUIPMENT_EVENT_TYPE_LABELS,
  EVENT_CLASSIFIER_CODES,
  EVENT_CLASSIFIER_LABELS,
  eventTypeCodeOf,
  FACILITY_TYPE_CODES,
  FACILITY_TYPE_LABELS,
  type IngestResponse,
  MODES_OF_TRANSPORT,
  TRANSPORT_EVENT_TYPE_CODES,
  TRANSPORT_EVENT_TYPE_LABELS,
} from '@fvg/contracts';
import { SimpleGrid, Stack } from '@mantine/core';
import { useMemo, useState } from 'react';
import { type FieldPath, useForm, useWatch } from 'react-hook-form';
import { DateTimeField, SelectField, TextField } from '../../../components/records/form-fields.tsx';
import {
  contractResolver,
  RecordFormShell,
  useRecordSubmit,
  useUnsavedChangesGuard,
} from '../../../components/records/record-form.tsx';
import { toZonedIso, zoneLabel } from '../../../lib/format-date.ts';
import { useAddContainerEvent } from '../api/container-events-api.ts';
import { EMPTY_OPTIONS, EVENT_KIND_LABELS, EVENT_TYPE_LABELS, MODE_LABELS } from './event-meta.ts';

/** The kinds of event staff enter by hand (shipment events come from the carriers' systems). */
const MANUAL_KINDS = ['EQUIPMENT', 'TRANSPORT'] as const;
export type ManualEventKind = (typeof MANUAL_KINDS)[number];

/**
 * The form's values, named as DCSA names the fields (so a problem's `transportCall.UNLocationCode`
 * lands on its field): text everywhere ('' for empty); the time as ISO 8601 with the preferred zone's
 * offset (DateTimeField). Both type-code fields are kept; the kind picks one.
 */
export interface ManualEventValues {
  eventType: ManualEventKind;
  eventClassifierCode: string;
  equipmentEventTypeCode: string;
  transportEventTypeCode: string;
  eventDateTime: string;
  /** The open timeline's container (read-only): an equipment event's own, a transport event's EQ reference. */
  equipmentReference: string;
  emptyIndicatorCode: string;
  transportCall: {
    modeOfTransport: string;
    UNLocationCode: string;
    facilityTypeCode: string;
    carrierVoyageNumber: string;
    vessel: { vesselName: string; vesselIMONumber: string };
  };
  /** Become the documentReferences BKG and TRD (as in the CSV import). */
  carrierBookingReference: string;
  transportDocumentReference: string;
}

/** Now, to the minute, in the preferred zone with its offset: '2026-03-01T14:30:00+01:00'. */
function nowToTheMinute(): string {
  const now = new Date();
  now.setSeconds(0, 0);
  return toZonedIso(now);
}

export function emptyManualEvent(containerNumber: string): ManualEventValues {
  return {
    eventType: 'EQUIPMENT',
    eventClassifierCode: 'ACT',
    equipmentEventTypeCode: '',
    transportEventTypeCode: '',
    eventDateTime: nowToTheMinute(),
    equipmentReference: containerNumber,
    emptyIndicatorCode: '',
    transportCall: {
      modeOfTransport: '',
      UNLocationCode: '',
      facilityTypeCode: '',
      carrierVoyageNumber: '',
      vessel: { vesselName: '', vesselIMONumber: '' },
    },
    carrierBookingReference: '',
    transportDocumentReference: '',
  };
}

const given = (text: string) => text.trim() || undefined;

/** Only the parts that hold something: DCSA objects leave out what is not known. */
function filled<T extends Record<string, unknown>>(parts: T): T | undefined {
  const kept = Object.entries(parts).filter(([, v]) => v !== undefined);
  return kept.length ? (Object.fromEntries(kept) as T) : undefined;
}

/**
 * The DCSA event the form describes, for `dcsaEventSchema`: the place and the carrier as the
 * transport call, the vessel only by vessel, the booking and BL as documentReferences, the container
 * of a transport event as its EQ reference.
 */
export function manualEventInput(
  values: ManualEventValues,
  ids: { eventID: string; eventCreatedDateTime: string },
): Record<string, unknown> {
  const call = values.transportCall;
  const byVessel = call.modeOfTransport === 'VESSEL';
  const transportCall = filled({
    modeOfTransport: given(call.modeOfTransport),
    UNLocationCode: given(call.UNLocationCode),
    facilityTypeCode: given(call.facilityTypeCode),
    carrierVoyageNumber: byVessel ? given(call.carrierVoyageNumber) : undefined,
    vessel: byVessel
      ? filled({
          vesselName: given(call.vessel.vesselName),
          vesselIMONumber: given(call.vessel.vesselIMONumber),
        })
      : undefined,
  });
  const documentReferences = (
    [
      ['BKG', values.carrierBookingReference],
      ['TRD', values.transportDocumentReference],
    ] as const
  )
    .filter(([, value]) => value.trim())
    .map(([documentReferenceType, value]) => ({
      documentReferenceType,
      documentReferenceValue: value.trim(),
    }));
  const common = {
    eventID: ids.eventID,
    eventClassifierCode: given(values.eventClassifierCode),
    eventDateTime: given(values.eventDateTime),
    eventCreatedDateTime: ids.eventCreatedDateTime,
    transportCall,
    ...(documentReferences.length ? { documentReferences } : {}),
  };
  return values.eventType === 'EQUIPMENT'
    ? {
        eventType: 'EQUIPMENT',
        ...common,
        equipmentEventTypeCode: given(values.equipmentEventTypeCode),
        equipmentReference: values.equipmentReference,
        emptyIndicatorCode: given(values.emptyIndicatorCode),
      }
    : {
        eventType: 'TRANSPORT',
        ...common,
        transportEventTypeCode: given(values.transportEventTypeCode),
        references: [{ referenceType: 'EQ', referenceValue: values.equipmentReference }],
      };
}

/**
 * The contract's rules (the server's), and what an event entered by hand needs besides: the place,
 * so that the timeline can say where. Checked even when other fields fail, so all show at once.
 */
export const manualEventSchema = dcsaEventSchema.superRefine(
  (event, ctx) => {
    const call = (event as { transportCall?: { UNLocationCode?: unknown } }).transportCall;
    if (call?.UNLocationCode === undefined)
      // A missing value, worded like every other one ("UN/LOCODE is required").
      ctx.addIssue({
        code: 'invalid_type',
        expected: 'string',
        input: undefined,
        path: ['transportCall', 'UNLocationCode'],
        message: 'Required',
      });
  },
  { when: () => true },
);

const options = <C extends string>(codes: readonly C[], label: (code: C) => string) =>
  codes.map((code) => ({ value: code, label: label(code) }));
const KIND_OPTIONS = options(MANUAL_KINDS, (k) => EVENT_KIND_LABELS[k]);
const CLASSIFIER_OPTIONS = options(EVENT_CLASSIFIER_CODES, (c) => EVENT_CLASSIFIER_LABELS[c]);
const TYPE_OPTIONS = {
  EQUIPMENT: options(EQUIPMENT_EVENT_TYPE_CODES, (c) => `${EQUIPMENT_EVENT_TYPE_LABELS[c]} (${c})`),
  TRANSPORT: options(TRANSPORT_EVENT_TYPE_CODES, (c) => `${TRANSPORT_EVENT_TYPE_LABELS[c]} (${c})`),
};
const FACILITY_OPTIONS = options(FACILITY_TYPE_CODES, (c) => `${FACILITY_TYPE_LABELS[c]} (${c})`);
const MODE_OPTIONS = options(MODES_OF_TRANSPORT, (m) => MODE_LABELS[m]);
const upper = (s: string) => s.toUpperCase();

/** Problem paths that name no field of the form as such (the rest are the form's own paths). */
const SERVER_FIELDS: Partial<Record<string, FieldPath<ManualEventValues>>> = {
  'references.0.referenceValue': 'equipmentReference',
};

/** The fields' labels, for messages that name them. */
const LABELS: Record<string, string> = {
  equipmentReference: 'Container',
  eventType: 'Event kind',
  eventClassifierCode: 'Classifier',
  equipmentEventTypeCode: 'Event',
  transportEventTypeCode: 'Event',
  eventDateTime: 'Date and time',
  emptyIndicatorCode: 'Empty or laden',
  'transportCall.UNLocationCode': 'UN/LOCODE',
  'transportCall.facilityTypeCode': 'Facility type',
  'transportCall.modeOfTransport': 'Mode of transport',
  'transportCall.vessel.vesselName': 'Vessel',
  'transportCall.vessel.vesselIMONumber': 'IMO number',
  'transportCall.carrierVoyageNumber': 'Voyage',
  carrierBookingReference: 'Booking number',
  transportDocumentReference: 'Bill of lading',
};

/** What the notification says once the server took the event: 'Gated in (Actual) added to MSKU6011672.' */
export function addedMessage(event: DcsaEvent, result: IngestResponse): string {
  if (result.created === 0) return 'This event was recorded already: nothing changed.';
  const what = `${EVENT_TYPE_LABELS[eventTypeCodeOf(event)]} (${EVENT_CLASSIFIER_LABELS[event.eventClassifierCode]})`;
  const container =
    event.eventType === 'EQUIPMENT' ? event.equipmentReference : event.references?.[0]?.referenceValue;
  return `${what} added to ${container}.`;
}

export interface ManualEventFormProps {
  /** The open timeline's container, as the server keys it. */
  containerNumber: string;
  /** After the server took it: `duplicate` when an event with its eventID was stored already. */
  onAdded: (event: DcsaEvent, result: IngestResponse) => void;
  onCancel: () => void;
  keepsForm?: (next: { pathname: string; search: Record<string, unknown> }) => boolean;
}

/**
 * Adds an event to a container's timeline by hand (staff): a DCSA event with a fresh eventID, checked
 * by the contract's schema before it is sent; the server's field problems land on the same fields.
 */
export function ManualEventForm({ containerNumber, onAdded, onCancel, keepsForm }: ManualEventFormProps) {
  // One eventID per form: a retried save after a lost answer is a duplicate, not a second event.
  const [eventID] = useState(() => crypto.randomUUID());
  const toInput = useMemo(
    () => (values: ManualEventValues) =>
      manualEventInput(values, { eventID, eventCreatedDateTime: new Date().toISOString() }),
    [eventID],
  );
  const resolver = useMemo(
    () => contractResolver<ManualEventValues>(manualEventSchema, toInput, LABELS),
    [toInput],
  );
  const form = useForm<ManualEventValues>({ resolver, defaultValues: emptyManualEvent(containerNumber) });
  const add = useAddContainerEvent();
  const guard = useUnsavedChangesGuard(form.formState.isDirty, keepsForm);
  const [kind, mode] = useWatch({
    control: form.control,
    name: ['eventType', 'transportCall.modeOfTransport'],
  });

  const submit = useRecordSubmit(
    form,
    async (values) => {
      const event = manualEventSchema.parse(toInput(values));
      const result = await add.mutateAsync(event);
      guard.release();
      onAdded(event, result);
    },
    { rename: SERVER_FIELDS, labels: LABELS },
  );

  const typeField = kind === 'TRANSPORT' ? 'transportEventTypeCode' : 'equipmentEventTypeCode';
  return (
    <>
      <RecordFormShell
        form={form}
        submit={submit}
        submitLabel="Add event"
        onCancel={onCancel}
        label={`Add an event to container ${containerNumber}`}
        testId="manual-event-form"
      >
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextField
              form={form}
              name="equipmentReference"
              label="Container"
              readOnly
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            />
            <SelectField
              form={form}
              name="eventType"
              label="Event kind"
              data={KIND_OPTIONS}
              allowDeselect={false}
              required
            />
            <SelectField
              form={form}
              name="eventClassifierCode"
              label="Classifier"
              data={CLASSIFIER_OPTIONS}
              allowDeselect={false}
              required
            />
            <SelectField
              key={typeField}
              form={form}
              name={typeField}
              label="Event"
              data={TYPE_OPTIONS[kind]}
              searchable
              required
              data-autofocus
            />
            <DateTimeField
              form={form}
              name="eventDateTime"
              label="Date and time"
              hint={`In your time zone, ${zoneLabel()}`}
              required
            />
            {kind === 'EQUIPMENT' && (
              <SelectField
                form={form}
                name="emptyIndicatorCode"
                label="Empty or laden"
                data={EMPTY_OPTIONS}
                required
              />
            )}
            <TextField
              form={form}
              name="transportCall.UNLocationCode"
              label="UN/LOCODE"
              placeholder="e.g. NLRTM"
              transform={upper}
              maxLength={5}
              required
            />
            <SelectField
              form={form}
              name="transportCall.facilityTypeCode"
              label="Facility type"
              data={FACILITY_OPTIONS}
              clearable
            />
            <SelectField
              form={form}
              name="transportCall.modeOfTransport"
              label="Mode of transport"
              data={MODE_OPTIONS}
              required
            />
          </SimpleGrid>
          {mode === 'VESSEL' && (
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
              <TextField form={form} name="transportCall.vessel.vesselName" label="Vessel" maxLength={35} />
              <TextField
                form={form}
                name="transportCall.vessel.vesselIMONumber"
                label="IMO number"
                inputMode="numeric"
                maxLength={7}
              />
              <TextField
                form={form}
                name="transportCall.carrierVoyageNumber"
                label="Voyage"
                transform={upper}
                maxLength={50}
              />
            </SimpleGrid>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextField form={form} name="carrierBookingReference" label="Booking number" maxLength={100} />
            <TextField form={form} name="transportDocumentReference" label="Bill of lading" maxLength={100} />
          </SimpleGrid>
        </Stack>
      </RecordFormShell>
      {guard.dialog}
    </>
  );
}
