import { type PasswordChangeRequest, type ProfileUpdate, passwordChangeResponseSchema } from '@fvg/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { normalizeMe, setMe, setToken } from '../../../lib/session.ts';

/*
 * The profile's calls. The user record is the session's (`sessionKeys.me`): a saved profile replaces
 * it in the cache and puts its preferences in force at once (lib/session.ts setMe).
 */

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: ProfileUpdate) => normalizeMe(await api.patch('profile', body)),
    onSuccess: (me) => setMe(queryClient, me),
  });
}

/** Changes the password; the answer's token replaces this session's (every older one is refused). */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: PasswordChangeRequest) =>
      api.post('profile/password', body, { schema: passwordChangeResponseSchema }),
    onSuccess: ({ Token }) => setToken(Token),
  });
}
