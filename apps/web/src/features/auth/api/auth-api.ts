import {
  type MessageResponse,
  messageResponseSchema,
  type PwdLinkRequest,
  type PwdResetRequest,
} from '@fvg/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** `POST auth/pwd/link`: always the same neutral answer, whether the address has an account or not. */
export function requestPasswordLink(body: PwdLinkRequest): Promise<MessageResponse> {
  return api.post('auth/pwd/link', body, { schema: messageResponseSchema });
}

/** `POST auth/pwd/reset`: sets the new password with the single-use token of the mailed link. */
export function resetPassword(body: PwdResetRequest): Promise<MessageResponse> {
  return api.post('auth/pwd/reset', body, { schema: messageResponseSchema });
}

export function usePasswordLinkMutation() {
  return useMutation({ mutationFn: requestPasswordLink });
}

export function usePasswordResetMutation() {
  return useMutation({ mutationFn: resetPassword });
}
