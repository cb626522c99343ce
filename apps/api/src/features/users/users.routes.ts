import {
  handlerSchema,
  listResponseSchema,
  userAdminSchema,
  userAdminUpdateSchema,
  userInviteSchema,
  userListQuerySchema,
} from '@fvg/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams, problemResponses } from '../../records/routes.ts';
import type { UsersAdminService } from './users-admin.service.ts';

export const usersRoutes: FastifyPluginAsyncZod<{ users: UsersAdminService }> = async (app, { users }) => {
  app.addHook('onRequest', app.authenticate);
  const tags = ['users'];
  app.get(
    '/users',
    {
      schema: {
        tags,
        summary: 'Users (admin)',
        querystring: userListQuerySchema,
        response: { 200: listResponseSchema(userAdminSchema), ...problemResponses },
      },
    },
    (request) => users.list(request.user, request.query),
  );
  app.get(
    '/users/handlers',
    {
      schema: {
        tags,
        summary: 'Active staff users, to choose a handler from',
        response: { 200: z.array(handlerSchema), ...problemResponses },
      },
    },
    (request) => users.handlers(request.user),
  );
  app.post(
    '/users/invite',
    {
      schema: {
        tags,
        summary: 'Invite a user by mail (admin)',
        body: userInviteSchema,
        response: { 201: userAdminSchema, ...problemResponses },
      },
    },
    async (request, reply) => reply.status(201).send(await users.invite(request.user, request.body)),
  );
  app.patch(
    '/users/:id',
    {
      schema: {
        tags,
        summary: 'Change a user (admin)',
        params: idParams,
        body: userAdminUpdateSchema,
        response: { 200: userAdminSchema, ...problemResponses },
      },
    },
    (request) => users.update(request.user, request.params.id, request.body),
  );
  app.post(
    '/users/:id/end-sessions',
    {
      schema: {
        tags,
        summary: 'End every session of a user: signed out everywhere, may sign in again (admin)',
        params: idParams,
        response: { 204: z.null(), ...problemResponses },
      },
    },
    async (request, reply) => {
      await users.endSessions(request.user, request.params.id);
      return reply.status(204).send(null);
    },
  );
};
