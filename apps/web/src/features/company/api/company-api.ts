import {
  type AuditEntry,
  auditEntrySchema,
  backupOverviewSchema,
  type CompanyUpdate,
  type CustomsRatesOfMonth,
  companySchema,
  customsRatesOfMonthSchema,
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
  customsRates: (month: string) => [...companyKeys.all, 'customs-rates', month] as const,
};

/** The company's customs exchange rates of a month (`YYYY-MM`; staff). */
export function customsRatesOptions(month: string) {
  return queryOptions({
    queryKey: companyKeys.customsRates(month),
    queryFn: ({ signal }) =>
      api.get(`company/customs-rates?month=${encodeURIComponent(month)}`, {
        signal,
        schema: customsRatesOfMonthSchema,
      }),
  });
}

/** Sets (rate) or removes (null) a month's customs rate of a currency; the month's list comes back. */
export function useSaveCustomsRate(month: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      currency,
      rate,
    }: {
      currency: string;
      rate: string | null;
    }): Promise<CustomsRatesOfMonth> => {
      const path = `company/customs-rates/${month}/${encodeURIComponent(currency)}`;
      return rate === null
        ? api.delete(path, { schema: customsRatesOfMonthSchema })
        : api.put(path, { rate }, { schema: customsRatesOfMonthSchema });
    },
    onSuccess: (rates) => {
      queryClient.setQueryData(companyKeys.customsRates(month), rates);
      void queryClient.invalidateQueries({ queryKey: companyKeys.history() });
    },
  });
}

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
