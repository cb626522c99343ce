import {
  type DeclarationListItem,
  declarationListItemSchema,
  declarationSchema,
  listResponseSchema,
} from '@fvg/contracts';
import type { LookupOption, LookupSource } from '../../../components/records/record-select.tsx';
import { api, isApiError } from '../../../lib/api-client.ts';
import { withQuery } from '../../../lib/query-string.ts';

const listSchema = listResponseSchema(declarationListItemSchema);

const option = (d: Pick<DeclarationListItem, 'id' | 'lrn' | 'mrn'>): LookupOption => ({
  value: d.id,
  label: d.mrn ? `${d.mrn} · ${d.lrn}` : d.lrn,
});

/**
 * The owner's entries into customs warehousing a receipt may name: import declarations of category
 * H2 that customs have released (the API refuses any other with a 422 on the field, ADR 0046). The key lies under the
 * declarations' root, so a declaration that gets its MRN refreshes the picker.
 */
export function entryDeclarationLookup(ownerId: string): LookupSource {
  return {
    key: ['declarations', 'lookup', 'entry', ownerId],
    search: async (q, signal) => {
      if (!ownerId) return [];
      const page = await api.get(
        withQuery('declarations', {
          type: 'import',
          status: 'released',
          customerId: ownerId,
          reference: q || undefined,
          sort: '-createdAt',
          pageSize: 50,
        }),
        { signal, schema: listSchema },
      );
      return page.items.filter((d) => d.category === 'H2' && d.status === 'released' && d.mrn).map(option);
    },
    byId: async (id, signal) => {
      try {
        return option(
          await api.get(`declarations/${encodeURIComponent(id)}`, { signal, schema: declarationSchema }),
        );
      } catch (error) {
        if (isApiError(error) && error.status === 404) return null;
        throw error;
      }
    },
  };
}
