import { containerInputSchema, normalizeContainerNumber } from '@fvg/contracts';
import { Button, Modal } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { TextField } from '../../../components/records/form-fields.tsx';
import {
  contractResolver,
  RecordFormShell,
  useRecordSubmit,
} from '../../../components/records/record-form.tsx';

interface PromptValues {
  number: string;
}

/** The dossier contract's container number: ISO 6346 with its check digit, said in words. */
const schema = containerInputSchema.pick({ number: true });
const resolver = contractResolver<PromptValues>(schema, (v) => v);

/**
 * "Add event" on the containers list (staff): asks which container, checks the number (format and
 * ISO 6346 check digit) and hands it on, so an event can be entered for a container that has none yet.
 */
export function AddEventPrompt({ onContainer }: { onContainer: (containerNumber: string) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="light"
        leftSection={<IconPlus size={16} aria-hidden />}
        onClick={() => setOpen(true)}
        data-testid="add-event-any"
      >
        Add event
      </Button>
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        title="Add an event"
        size="sm"
        data-testid="add-event-prompt"
      >
        {open && (
          <PromptForm
            onCancel={() => setOpen(false)}
            onContainer={(n) => {
              setOpen(false);
              onContainer(n);
            }}
          />
        )}
      </Modal>
    </>
  );
}

function PromptForm({
  onContainer,
  onCancel,
}: {
  onContainer: (containerNumber: string) => void;
  onCancel: () => void;
}) {
  const form = useForm<PromptValues>({ resolver, defaultValues: { number: '' } });
  const submit = useRecordSubmit(form, async (values) =>
    onContainer(normalizeContainerNumber(values.number)),
  );
  return (
    <RecordFormShell
      form={form}
      submit={submit}
      submitLabel="Continue"
      onCancel={onCancel}
      label="Which container?"
      testId="add-event-prompt-form"
    >
      <TextField
        form={form}
        name="number"
        label="Container number"
        placeholder="MSKU6011672"
        description="4 letters and 7 digits (ISO 6346); the event is added to this container's timeline"
        transform={(s) => s.toUpperCase()}
        data-autofocus
        withAsterisk
      />
    </RecordFormShell>
  );
}
