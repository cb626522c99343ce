import { type ContainerEvent, containerEventLinkSchema, type UnlinkedEvent } from '@fvg/contracts';
import { Stack } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { FactsTable } from '../../../components/records/facts.tsx';
import { LookupField, SwitchField } from '../../../components/records/form-fields.tsx';
import {
  contractResolver,
  RecordFormShell,
  useRecordSubmit,
} from '../../../components/records/record-form.tsx';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { useLinkContainerEvent } from '../api/container-events-api.ts';
import { ClassifierBadge } from './classifier-badge.tsx';
import { eventLabel, formatEventTime, placeText, unlinkedReasonText, vesselText } from './event-meta.ts';

export interface LinkFormValues {
  dossierId: string;
  applyToContainer: boolean;
}

const linkInput = (values: LinkFormValues) => values;
const resolver = contractResolver<LinkFormValues>(containerEventLinkSchema, linkInput);

export interface LinkEventFormProps {
  event: UnlinkedEvent;
  /** Dossiers to pick from (the dossiers area provides it; the screen hands it over). */
  dossierLookup: LookupSource;
  /** `leftUnlinked`: the container's events that stay unlinked (other voyages', contested ones). */
  onLinked: (linked: ContainerEvent[], dossierLabel: string, leftUnlinked: number) => void;
  onCancel: () => void;
}

/**
 * Links an event no dossier claimed to a dossier by hand: the dossier the server would match now is
 * preselected; with a container, its other unlinked events can follow. Problems (no such dossier, the
 * event gone) show on the form.
 */
export function LinkEventForm({ event, dossierLookup, onLinked, onCancel }: LinkEventFormProps) {
  const suggested = event.suggestedDossier;
  const form = useForm<LinkFormValues>({
    resolver,
    defaultValues: { dossierId: suggested?.id ?? '', applyToContainer: Boolean(event.equipmentReference) },
  });
  const link = useLinkContainerEvent();
  const submit = useRecordSubmit(form, async (values) => {
    const result = await link.mutateAsync({ id: event.id, body: containerEventLinkSchema.parse(values) });
    const number = result.linked[0]?.dossier?.number ?? suggested?.number ?? 'the dossier';
    onLinked(result.linked, number, result.leftUnlinked);
  });

  return (
    <RecordFormShell
      form={form}
      submit={submit}
      submitLabel="Link"
      onCancel={onCancel}
      label="Link event to a dossier"
      testId="link-form"
    >
      <Stack gap="md">
        <FactsTable
          testId="link-event-facts"
          rows={[
            [
              'Event',
              <span key="e">
                {eventLabel(event)} <ClassifierBadge code={event.eventClassifierCode} size="xs" />
              </span>,
            ],
            ['Time', formatEventTime(event.eventDateTime)],
            ['Container', event.equipmentReference],
            ['Place', placeText(event)],
            ['Vessel', vesselText(event)],
            [
              'Booking / BL',
              event.documentReferences.map((r) => r.documentReferenceValue).join(', ') || null,
            ],
          ]}
        />
        <LookupField
          form={form}
          name="dossierId"
          label="Dossier"
          placeholder="Search by dossier number or reference"
          description={unlinkedReasonText(event)}
          source={dossierLookup}
          knownOption={suggested ? { value: suggested.id, label: suggested.number } : null}
          required
          data-autofocus
          comboboxProps={{ withinPortal: true }}
        />
        {event.equipmentReference && (
          <SwitchField
            form={form}
            name="applyToContainer"
            variant="checkbox"
            label={`Also link the other unlinked events of ${event.equipmentReference} on this dossier's voyage`}
          />
        )}
      </Stack>
    </RecordFormShell>
  );
}
