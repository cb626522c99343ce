import {
  handlerSchema,
  listResponseSchema,
  type UserAdmin,
  userAdminSchema,
  type userAdminUpdateSchema,
  type userInviteSchema,
} from '@fvg/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { z } from 'zod';
import type { ListParams } from '../../../components/records/list-page.tsx';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { api } from '../../../lib/api-client.ts';
import { withQuery } from '../../../lib/query-string.ts';
import { userKeys } from './keys.ts';

const userListSchema = listResponseSchema(userAdminSchema);
const handlersSchema = z.array(handlerSchema);

export type UserInviteBody = z.output<typeof userInviteSchema>;
export type UserUpdateBody = z.output<typeof userAdminUpdateSchema>;

export function fetchUserList(params: ListParams, signal?: AbortSignal) {
  // The users list takes no sort parameter.
  const { sort: _sort, ...query } = params;
  return api.get(withQuery('users', query), { ...(signal ? { signal } : {}), schema: userListSchema });
}

export function handlersOptions() {
  return queryOptions({
    queryKey: userKeys.handlers(),
    queryFn: ({ signal }) => api.get('users/handlers', { signal, schema: handlersSchema }),
    staleTime: 5 * 60_000,
  });
}

export function useInviteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UserInviteBody) => api.post('users/invite', body, { schema: userAdminSchema }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UserUpdateBody }) =>
      api.patch(`users/${encodeURIComponent(id)}`, body, { schema: userAdminSchema }),
    onSuccess: (user: UserAdmin) => {
      queryClient.setQueryData(userKeys.detail(user.id), user);
      void queryClient.invalidateQueries({ queryKey: userKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: userKeys.handlers() });
    },
  });
}

/** Ends every session of a user (ADR 0052): signed out on every device, may sign in again. */
export function useEndSessions() {
  return useMutation({
    mutationFn: (id: string) => api.post(`users/${encodeURIComponent(id)}/end-sessions`),
  });
}

/**
 * Staff users to pick as a dossier's handler. The handler list is short and fetched once
 * (GET users/handlers); the picker filters it as the user types.
 */
export function handlerLookup(fetchHandlers: () => Promise<{ id: string; name: string }[]>): LookupSource {
  const options = async () => (await fetchHandlers()).map((h) => ({ value: h.id, label: h.name }));
  return {
    key: [...userKeys.handlers(), 'lookup'],
    search: async (q) => {
      const all = await options();
      const needle = q.trim().toLowerCase();
      return needle ? all.filter((o) => o.label.toLowerCase().includes(needle)) : all;
    },
    byId: async (id) => (await options()).find((o) => o.value === id) ?? null,
  };
}

/** The handler picker's source, reading the cached handler list. */
export function useHandlerLookup(): LookupSource {
  const queryClient = useQueryClient();
  return useMemo(() => handlerLookup(() => queryClient.fetchQuery(handlersOptions())), [queryClient]);
}
