import {
  meSchema,
  passwordChangeRequestSchema,
  passwordChangeResponseSchema,
  problemSchema,
  profileUpdateSchema,
} from '@fvg/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { problemResponses } from '../../records/routes.ts';
import type { ProfileService } from './profile.service.ts';

export const profileRoutes: FastifyPluginAsyncZod<{ profile: ProfileService }> = async (app, { profile }) => {
  app.addHook('onRequest', app.authenticate);
  const tags = ['profile'];
  app.patch(
    '/profile',
    {
      schema: {
        tags,
        summary: 'Change your own name and preferences (number, date and time format, zone, language)',
        body: profileUpdateSchema,
        response: { 200: meSchema, ...problemResponses },
      },
    },
    (request) => profile.update(request.user, request.body),
  );
  app.post(
    '/profile/password',
    {
      schema: {
        tags,
        summary: 'Change your own password; other sessions end, this one gets a fresh token',
        body: passwordChangeRequestSchema,
        response: { 200: passwordChangeResponseSchema, ...problemResponses, 429: problemSchema },
      },
    },
    (request) => profile.changePassword(request.user, request.body),
  );
};
