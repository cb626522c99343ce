import type { FastifyBaseLogger } from 'fastify';

/** Why a user's sessions end before their tokens expire. */
export type SessionEndReason = 'deactivated' | 'password-changed' | 'access-changed';

type RevokeListener = (userId: string, reason: SessionEndReason) => Promise<void> | void;

/**
 * Sessions that outlive one request (the hub's open connections) and must end when the user's
 * standing changes. Every path that deactivates a user, changes a password or changes role, party or
 * access calls `revoke` after its transaction commits; HTTP requests need nothing more, since each
 * one re-checks the user.
 */
export interface Sessions {
  revoke(userId: string, reason: SessionEndReason): Promise<void>;
  /** Whoever holds sessions open ends them here (the hub, through its backplane to every node). */
  onRevoke(listener: RevokeListener): () => void;
}

export function createSessions(log: FastifyBaseLogger): Sessions {
  const listeners = new Set<RevokeListener>();
  return {
    async revoke(userId, reason) {
      // The change is committed: a failing listener must not turn it into an error. Open connections
      // it missed are still refused at their next call, which re-checks the user.
      const results = await Promise.allSettled([...listeners].map(async (l) => l(userId, reason)));
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
