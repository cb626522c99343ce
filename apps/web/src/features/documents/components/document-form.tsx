import { type Document, documentUpdateSchema } from '@fvg/contracts';
import { SimpleGrid, Stack } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { SelectField, SwitchField, TextField } from '../../../components/records/form-fields.tsx';
import {
  changedFields,
  contractResolver,
  RecordFormShell,
  useRecordBase,
  useRecordSubmit,
  useUnsavedChangesGuard,
} from '../../../components/records/record-form.tsx';
import { useUpdateDocument } from '../api/documents-api.ts';
import { DOCUMENT_FIELD_LABELS, DOCUMENT_TYPE_OPTIONS } from './document-meta.ts';

export interface DocumentFormValues {
  documentType: string;
  visibleToCustomer: boolean;
  fileName: string;
}

export function documentValues(d: Document): DocumentFormValues {
  return { documentType: d.documentType, visibleToCustomer: d.visibleToCustomer, fileName: d.fileName };
}

/** What the API takes; the version is the record's (any valid one satisfies the schema while validating). */
const documentInput = (v: DocumentFormValues, version = 1) => ({ ...v, version });

const resolver = contractResolver<DocumentFormValues>(documentUpdateSchema, (v) => documentInput(v));

export interface DocumentFormProps {
  document: Document;
  onSaved: (document: Document) => void;
  onCancel: () => void;
  reload?: () => Promise<Document | undefined>;
  keepsForm?: (next: { pathname: string; search: Record<string, unknown> }) => boolean;
}

/** Staff change a document's type, its customer visibility and its file name; the bytes stay as uploaded. */
export function DocumentForm({ document, onSaved, onCancel, reload, keepsForm }: DocumentFormProps) {
  const form = useForm<DocumentFormValues>({ resolver, defaultValues: documentValues(document) });
  const update = useUpdateDocument();
  const guard = useUnsavedChangesGuard(form.formState.isDirty, keepsForm);
  const base = useRecordBase(form, document, documentValues);

  const submit = useRecordSubmit(form, async (values) => {
    const { version: _version, ...fields } = documentUpdateSchema.parse(documentInput(values));
    const changes = changedFields(fields, form.formState.dirtyFields);
    const saved =
      Object.keys(changes).length === 0
        ? document
        : await update.mutateAsync({
            id: document.id,
            body: { ...changes, version: base.version ?? document.version },
          });
    guard.release();
    base.restart(saved);
    onSaved(saved);
  });

  return (
    <>
      <RecordFormShell
        form={form}
        submit={submit}
        fieldLabels={DOCUMENT_FIELD_LABELS}
        submitLabel="Save document"
        onCancel={onCancel}
        label={`Edit ${document.fileName}`}
        testId="document-form"
        {...(reload
          ? {
              onReload: async () => {
                const fresh = await reload();
                return fresh ? base.reapply(fresh) : undefined;
              },
            }
          : {})}
      >
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <SelectField
              form={form}
              name="documentType"
              label="Document type"
              data={DOCUMENT_TYPE_OPTIONS}
              allowDeselect={false}
              searchable
              withAsterisk
            />
            <TextField form={form} name="fileName" label="File name" withAsterisk />
          </SimpleGrid>
          <SwitchField
            form={form}
            name="visibleToCustomer"
            label="Visible to the customer"
            description="The dossier's customer sees, previews and downloads it in the portal."
          />
        </Stack>
      </RecordFormShell>
      {guard.dialog}
    </>
  );
}
