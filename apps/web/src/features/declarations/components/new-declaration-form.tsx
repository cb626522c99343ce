import { CATEGORIES_OF_TYPE, type Declaration, type DeclarationType } from '@fvg/contracts';
import { SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { useWatch } from 'react-hook-form';
import { CustomerField, DossierLinkField, SelectField } from '../../../components/records/form-fields.tsx';
import {
  RecordForm,
  type RecordFormWiring,
  useRecordForm,
} from '../../../components/records/record-form.tsx';
import type { CustomerDossierLookups } from '../../../components/records/record-select.tsx';
import { useCreateDeclaration } from '../api/declarations-api.ts';
import { categoryOptionsOf, DECLARATION_FIELD_LABELS as L, TYPE_OPTIONS } from './declaration-meta.ts';

interface NewDeclarationValues {
  type: DeclarationType;
  category: string;
  dossierId: string;
  customerId: string;
}

/** What the API takes: the dossier names the customer; without one the customer is required. */
export const newDeclarationInput = (values: NewDeclarationValues) => ({
  type: values.type,
  ...(values.category ? { category: values.category as Declaration['category'] } : {}),
  ...(values.dossierId ? { dossierId: values.dossierId } : { customerId: values.customerId || undefined }),
});

export interface NewDeclarationFormProps extends RecordFormWiring<Declaration>, CustomerDossierLookups {
  onSaved: (declaration: Declaration) => void;
  onCancel: () => void;
}

/**
 * A draft declaration: its type, and the dossier it belongs to (parties, transport and goods are
 * taken from it) or, without one, the customer it is made for. The rest is filled on its page.
 */
export function NewDeclarationForm({ customerLookup, dossierLookup, ...wiring }: NewDeclarationFormProps) {
  const create = useCreateDeclaration();
  const declaration = useRecordForm({
    ...wiring,
    empty: (): NewDeclarationValues => ({ type: 'import', category: '', dossierId: '', customerId: '' }),
    labels: L,
    create: async (values) => {
      if (!values.dossierId && !values.customerId) {
        declaration.form.setError('customerId', { message: 'Choose a dossier or a customer' });
        return undefined;
      }
      return create.mutateAsync(newDeclarationInput(values));
    },
  });
  const { form } = declaration;
  const type = useWatch({ control: form.control, name: 'type' });
  const dossierId = useWatch({ control: form.control, name: 'dossierId' });
  const categories = CATEGORIES_OF_TYPE[type];

  return (
    <RecordForm
      of={declaration}
      submitLabel="Create draft"
      label="New declaration"
      testId="new-declaration-form"
    >
      <Stack gap="md">
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            Type
          </Text>
          <SegmentedControl
            data={TYPE_OPTIONS}
            value={type}
            onChange={(value) => {
              form.setValue('type', value as DeclarationType, { shouldDirty: true });
              form.setValue('category', '');
            }}
            data-testid="new-declaration-type"
          />
        </Stack>
        {categories.length > 1 && (
          <SelectField
            form={form}
            name="category"
            label={L.category}
            data={categoryOptionsOf(categories)}
            placeholder={categoryOptionsOf(categories)[0]?.label}
          />
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <DossierLinkField
            form={form}
            name="dossierId"
            label={L.dossierId}
            source={dossierLookup}
            description="Parties, transport and goods are taken from the dossier"
          />
          {!dossierId && (
            <CustomerField form={form} name="customerId" label={L.customerId} source={customerLookup} />
          )}
        </SimpleGrid>
      </Stack>
    </RecordForm>
  );
}
