import {
  notificationPageQuerySchema,
  notificationPageSchema,
  notificationsReadAllSchema,
  notificationsReadSchema,
} from '@fvg/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParams, problemResponses } from '../../records/routes.ts';
import type { NotificationsService } from './notifications.service.ts';

const tags = ['notifications'];

export const notificationsRoutes: FastifyPluginAsyncZod<{ notifications: NotificationsService }> = async (
  app,
  { notifications },
) => {
  app.addHook('onRequest', app.authenticate);
  app.get(
    '/notifications',
    {
      schema: {
        tags,
        summary: "The signed-in user's notifications, newest first (`after` pages on), with the unread count",
        querystring: notificationPageQuerySchema,
        response: { 200: notificationPageSchema, ...problemResponses },
      },
    },
    (request) => notifications.page(request.user, request.query),
  );
  app.post(
    '/notifications/:id/read',
    {
      schema: {
        tags,
        summary: 'Marks one of your notifications read; answers the unread count',
        params: idParams,
        response: { 200: notificationsReadSchema, ...problemResponses },
      },
    },
    (request) => notifications.markRead(request.user, request.params.id),
  );
  app.post(
    '/notifications/read-all',
    {
      schema: {
        tags,
        summary:
          'Marks all your notifications read (with `upTo`: that one and older ones); answers the unread count',
        body: notificationsReadAllSchema,
        response: { 200: notificationsReadSchema, ...problemResponses },
      },
    },
    (request) => notifications.markAllRead(request.user, request.body.upTo),
  );
};
