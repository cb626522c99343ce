import {
  companySchema,
  companyUpdateSchema,
  customsRateCurrencySchema,
  customsRateInputSchema,
  customsRateMonthSchema,
  customsRatesOfMonthSchema,
  customsRatesQuerySchema,
} from '@fvg/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { historyResponse, problemResponses } from '../../records/routes.ts';
import type { CompanyService } from './company.service.ts';
import type { CustomsRatesService } from './customs-rates.ts';

const rateParams = z.strictObject({ month: customsRateMonthSchema, currency: customsRateCurrencySchema });

export const companyRoutes: FastifyPluginAsyncZod<{
  company: CompanyService;
  rates: CustomsRatesService;
}> = async (app, { company, rates }) => {
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
  app.get(
    '/company/customs-rates',
    {
      schema: {
        tags,
        summary:
          "The company's customs exchange rates of a month, EUR per unit of each currency (staff; UCC art. 53): what declarations lodged that month are converted at",
        querystring: customsRatesQuerySchema,
        response: { 200: customsRatesOfMonthSchema, ...problemResponses },
      },
    },
    (request) => rates.list(request.user, request.query.month),
  );
  app.put(
    '/company/customs-rates/:month/:currency',
    {
      schema: {
        tags,
        summary:
          "Set or correct a month's customs exchange rate for a currency (staff); the company history keeps it",
        params: rateParams,
        body: customsRateInputSchema,
        response: { 200: customsRatesOfMonthSchema, ...problemResponses },
      },
    },
    (request) => rates.put(request.user, request.params.month, request.params.currency, request.body.rate),
  );
  app.delete(
    '/company/customs-rates/:month/:currency',
    {
      schema: {
        tags,
        summary:
          'Remove a rate entered by mistake (staff); refused once a declaration lodged that month was converted at it',
        params: rateParams,
        response: { 200: customsRatesOfMonthSchema, ...problemResponses },
      },
    },
    (request) => rates.remove(request.user, request.params.month, request.params.currency),
  );
};
