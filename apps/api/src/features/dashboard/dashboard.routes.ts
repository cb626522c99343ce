import {
  dashboardCardNameSchema,
  dashboardCardQuerySchema,
  dashboardCardSchema,
  dashboardIndexSchema,
} from '@fvg/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { problemResponses } from '../../records/routes.ts';
import { checkCardAccess, type DashboardService } from './dashboard.service.ts';

const cardParams = z.object({ card: dashboardCardNameSchema });

/** `GET /api/dashboard` (the user's cards) and `GET /api/dashboard/:card?tz=` (one card's figures). */
export const dashboardRoutes: FastifyPluginAsyncZod<{ dashboard: DashboardService }> = async (
  app,
  { dashboard },
) => {
  app.addHook('onRequest', app.authenticate);
  const tags = ['dashboard'];

  app.get(
    '/dashboard',
    {
      schema: {
        tags,
        summary: 'The dashboard cards this user gets, in layout order (warehouse cards need cw_access)',
        response: { 200: dashboardIndexSchema, ...problemResponses },
      },
    },
    (request) => dashboard.index(request.user),
  );

  app.get(
    '/dashboard/:card',
    {
      // Before validation, like the warehouse gate: a user without cw_access learns nothing from a
      // malformed query on a warehouse card, nor a customer from one on a staff card.
      preValidation: async (request: FastifyRequest) => {
        checkCardAccess(request.user, (request.params as { card?: string }).card ?? '');
      },
      schema: {
        tags,
        summary:
          "One card's figures, each with the list it opens (filtered the same way). `tz`: the zone of today, this week and this month (the company's when absent)",
        params: cardParams,
        querystring: dashboardCardQuerySchema,
        response: { 200: dashboardCardSchema, ...problemResponses },
      },
    },
    (request) => dashboard.card(request.user, request.params.card, request.query.tz),
  );
};
