import {
  meSchema,
  passwordChangeRequestSchema,
  passwordChangeResponseSchema,
  problemSchema,
  profileUpdateSchema,
} from '@fvg/contracts';
import type { FastifyRequest } from 'fastify';
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
  /** Work that must wait until the answer has been sent (the hub connections of the changed password). */
  const afterAnswer = new WeakMap<FastifyRequest, () => Promise<void>>();
  app.post(
    '/profile/password',
    {
      onResponse: async (request) => {
        await afterAnswer.get(request)?.();
      },
      schema: {
        tags,
        summary: 'Change your own password; other sessions end, this one gets a fresh token',
        body: passwordChangeRequestSchema,
        response: { 200: passwordChangeResponseSchema, ...problemResponses, 429: problemSchema },
      },
    },
    async (request) => {
      const { answer, endOpenConnections } = await profile.changePassword(request.user, request.body);
      afterAnswer.set(request, endOpenConnections);
      return answer;
    },
  );
};
