import { ROLES } from '@fvg/contracts';
import { z } from 'zod';
import {
  searchEnum,
  searchFlag,
  searchPage,
  searchPageSize,
  searchText,
  searchValidator,
} from '../../components/records/list-search.ts';

/** URL state of /admin/users: paging, search, role filter; `new=1` opens the invite dialog. */
export const usersSearchSchema = z.object({
  page: searchPage,
  pageSize: searchPageSize,
  q: searchText(),
  role: searchEnum(ROLES),
  new: searchFlag,
});

export const validateUsersSearch = searchValidator(usersSearchSchema);
