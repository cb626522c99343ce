import { NO_CW_ACCESS_MESSAGE } from '@fvg/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { problems } from '../../http/problem.ts';
import type { SessionUser } from '../users/users.repository.ts';

/**
 * The customs warehouse is gated by the cw_access flag (specification §3, product.md): a user without
 * it gets 403 from every warehouse endpoint, staff and admins included. Checked after authentication
 * (401 first), before any validation or lookup, so nothing about the warehouse leaks to them.
 */
export function requireCwAccess(user: SessionUser): void {
  if (!user.cw_access) throw problems.forbidden(NO_CW_ACCESS_MESSAGE);
}

/** Registers authentication and the cw_access gate on every route of a warehouse plugin. */
export function warehouseGate(app: FastifyInstance): void {
  app.addHook('onRequest', app.authenticate);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    requireCwAccess(request.user);
  });
}
