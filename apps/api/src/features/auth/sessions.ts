import type { FastifyBaseLogger } from 'fastify';

/** Why a user's sessions end before their tokens expire. */
export type SessionEndReason =
  | 'deactivated'
  | 'password-changed'
  | 'access-changed'
  /** The user signed out: that one token ends (ADR 0052). */
  | 'signed-out'
  /** An administrator ended every session of the user (ADR 0052). */
  | 'sessions-ended';

type RevokeListener = (
  userId: string,
  reason: SessionEndReason,
  tokenHash: string | undefined,
) => Promise<void> | void;

/**
 * Sessions that outlive one request (the hub's open connections) and must end when the user's
 * standing changes. Every path that deactivates a user, changes a password or changes role, party or
 * access, signs out or ends a user's sessions calls `revoke` after its transaction commits; HTTP
 * requests need nothing more, since each one re-checks the user (and its token) in the database.
 */
export interface Sessions {
  /** Ends the user's sessions; with `tokenHash` (SHA-256 of one token) only the sessions of that token. */
  revoke(userId: string, reason: SessionEndReason, tokenHash?: string): Promise<void>;
  /** Whoever holds sessions open ends them here (the hub, through its backplane to every node). */
  onRevoke(listener: RevokeListener): () => void;
}

export function createSessions(log: FastifyBaseLogger): Sessions {
  const listeners = new Set<RevokeListener>();
  return {
    async revoke(userId, reason, tokenHash) {
      // The change is committed: a failing listener must not turn it into an error. Open connections
      // it missed are still refused at their next call, which re-checks the user.
      const results = await Promise.allSettled([...listeners].map(async (l) => l(userId, reason, tokenHash)));
      for (const r of results)
        if (r.status === 'rejected')
          log.error({ err: r.reason, userId, reason }, 'session revocation failed');
    },
    onRevoke(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
