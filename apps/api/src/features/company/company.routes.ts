import { companySchema, companyUpdateSchema } from '@fvg/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { historyResponse, problemResponses } from '../../records/routes.ts';
import type { CompanyService } from './company.service.ts';

export const companyRoutes: FastifyPluginAsyncZod<{ company: CompanyService }> = async (app, { company }) => {
  app.addHook('onRequest', app.authenticate);
  const tags = ['company'];

  app.get(
    '/company',
    {
      schema: {
        tags,
        summary: 'The company settings and its number series of the current year (staff and admins)',
        response: { 200: companySchema, ...problemResponses },
      },
    },
    (request) => company.get(request.user),
  );
  app.put(
    '/company',
    {
      schema: {
        tags,
        summary:
          'Change the company settings (admins); `version` as read. A series next number at or below one issued is refused',
        body: companyUpdateSchema,
        response: { 200: companySchema, ...problemResponses },
      },
    },
    (request) => company.update(request.user, request.body),
  );
  app.get(
    '/company/history',
    { schema: { tags, response: { 200: historyResponse, ...problemResponses } } },
    (request) => company.history(request.user),
  );
};
