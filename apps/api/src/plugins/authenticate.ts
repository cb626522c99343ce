import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthService } from '../features/auth/auth.service.ts';
import type { SessionUser } from '../features/users/users.repository.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the `authenticate` pre-handler on routes that need a signed-in user. */
    user: SessionUser;
  }
  interface FastifyInstance {
    authenticate: (request: FastifyRequest) => Promise<void>;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/** Adds `app.authenticate`, the pre-handler that admits only requests with a valid bearer token. */
export const authenticatePlugin = fp<{ auth: AuthService }>(async (app: FastifyInstance, { auth }) => {
  app.decorateRequest('user', null as unknown as SessionUser);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    request.user = await auth.authenticate(bearerToken(request));
  });
});
