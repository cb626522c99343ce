import { searchQuerySchema, searchResponseSchema } from '@fvg/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { problemResponses } from '../../records/routes.ts';
import type { SearchService } from './search.service.ts';

export const searchRoutes: FastifyPluginAsyncZod<{ search: SearchService }> = async (app, { search }) => {
  app.addHook('onRequest', app.authenticate);
  app.get(
    '/search',
    {
      schema: {
        tags: ['search'],
        summary:
          'One search over every area the user may see, grouped by kind: exact identifiers, then prefixes, then words, then similar names',
        querystring: searchQuerySchema,
        response: { 200: searchResponseSchema, ...problemResponses },
      },
    },
    (request) => search.search(request.user, request.query),
  );
};
