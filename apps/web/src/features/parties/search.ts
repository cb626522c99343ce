import { PARTY_KINDS } from '@fvg/contracts';
import { z } from 'zod';
import {
  detailSearchShape,
  listSearchShape,
  searchParam,
  searchValidator,
} from '../../components/records/list-search.ts';

export const PARTY_SORT_FIELDS = ['name', 'code', 'countryCode', 'updatedAt'] as const;

/** URL state of /parties: paging, order, search, role and country filters, `new=1` opens the create form. */
export const partiesSearchSchema = z.object({
  ...listSearchShape(PARTY_SORT_FIELDS),
  kind: searchParam.enum(PARTY_KINDS),
  countryCode: z.preprocess(
    (v) => (typeof v === 'string' && /^[a-z]{2}$/i.test(v.trim()) ? v.trim().toUpperCase() : undefined),
    z.string().optional(),
  ),
  new: searchParam.flag,
});
export type PartiesSearch = z.infer<typeof partiesSearchSchema>;

/** URL state of /parties/$id: the tab and edit mode. */
export const partySearchSchema = z.object(detailSearchShape);

export const validatePartiesSearch = searchValidator(partiesSearchSchema);
export const validatePartySearch = searchValidator(partySearchSchema);
