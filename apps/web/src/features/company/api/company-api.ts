import {
  type AuditEntry,
  auditEntrySchema,
  backupOverviewSchema,
  type CompanyUpdate,
  companySchema,
} from '@fvg/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api-client.ts';

const historySchema = z.array(auditEntrySchema);

/** Every query key of the company settings; invalidation goes through these only. */
export const companyKeys = {
  all: ['company'] as const,
  settings: () => [...companyKeys.all, 'settings'] as const,
  history: () => [...companyKeys.all, 'history'] as const,
  backups: () => [...companyKeys.all, 'backups'] as const,
};

/** The last backup and the backup settings (admins; read-only, the operator sets them up). */
export function backupOptions() {
  return queryOptions({
    queryKey: companyKeys.backups(),
    queryFn: ({ signal }) => api.get('backups', { signal, schema: backupOverviewSchema }),
  });
}

export function companyOptions() {
  return queryOptions({
    queryKey: companyKeys.settings(),
    queryFn: ({ signal }) => api.get('company', { signal, schema: companySchema }),
  });
}

export function companyHistoryOptions() {
  return queryOptions({
    queryKey: companyKeys.history(),
    queryFn: ({ signal }): Promise<AuditEntry[]> =>
      api.get('company/history', { signal, schema: historySchema }),
  });
}

export function useUpdateCompany() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CompanyUpdate) => api.put('company', body, { schema: companySchema }),
    onSuccess: (company) => {
      queryClient.setQueryData(companyKeys.settings(), company);
      void queryClient.invalidateQueries({ queryKey: companyKeys.history() });
    },
  });
}
