import { type Document, documentUpdateSchema } from '@fvg/contracts';
import { SimpleGrid, Stack } from '@mantine/core';
import { SelectField, SwitchField, TextField } from '../../../components/records/form-fields.tsx';
import {
  RecordForm,
  type RecordFormWiring,
  useRecordForm,
} from '../../../components/records/record-form.tsx';
import { useUpdateDocument } from '../api/documents-api.ts';
import { DOCUMENT_FIELD_LABELS, documentTypeLabel, UPLOAD_DOCUMENT_TYPE_OPTIONS } from './document-meta.ts';

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

export interface DocumentFormProps extends RecordFormWiring<Document> {
  document: Document;
  onSaved: (document: Document) => void;
  onCancel: () => void;
}

/** Staff change a document's type, its customer visibility and its file name; the bytes stay as uploaded. */
export function DocumentForm({ document, ...wiring }: DocumentFormProps) {
  const update = useUpdateDocument();
  const record = useRecordForm({
    ...wiring,
    record: document,
    valuesOf: documentValues,
    schema: documentUpdateSchema,
    toInput: documentInput,
    update: async ({ version: _version, ...fields }, edit) => {
      const changes = edit.changed(fields);
      if (Object.keys(changes).length === 0) return edit.record;
      return update.mutateAsync({ id: edit.record.id, body: { ...changes, version: edit.version } });
    },
  });
  const { form } = record;

  return (
    <RecordForm
      of={record}
      fieldLabels={DOCUMENT_FIELD_LABELS}
      submitLabel="Save document"
      label={`Edit ${document.fileName}`}
      testId="document-form"
    >
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <SelectField
            form={form}
            name="documentType"
            label="Document type"
            data={
              // A PDF the product filed keeps its own type among the choices.
              UPLOAD_DOCUMENT_TYPE_OPTIONS.some((o) => o.value === document.documentType)
                ? UPLOAD_DOCUMENT_TYPE_OPTIONS
                : [
                    { value: document.documentType, label: documentTypeLabel(document.documentType) },
                    ...UPLOAD_DOCUMENT_TYPE_OPTIONS,
                  ]
            }
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
    </RecordForm>
  );
}
