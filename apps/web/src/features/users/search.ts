import { ROLES } from '@fvg/contracts';
import { z } from 'zod';
import { searchParam, searchValidator } from '../../components/records/list-search.ts';

/** URL state of /admin/users: paging, search, role filter; `new=1` opens the invite dialog. */
export const usersSearchSchema = z.object({
  page: searchParam.page,
  pageSize: searchParam.pageSize,
  q: searchParam.text(),
  role: searchParam.enum(ROLES),
  new: searchParam.flag,
});

export const validateUsersSearch = searchValidator(usersSearchSchema);
