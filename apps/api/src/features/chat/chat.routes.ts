import { chatPageQuerySchema, chatPageSchema } from '@fvg/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { problemResponses } from '../../records/routes.ts';
import type { ChatService } from './chat.service.ts';

export const chatRoutes: FastifyPluginAsyncZod<{ chat: ChatService }> = async (app, { chat }) => {
  app.addHook('onRequest', app.authenticate);
  app.get(
    '/dossiers/:id/messages',
    {
      schema: {
        tags: ['chat'],
        summary:
          'The dossier chat, a page at a time (oldest first; `before` pages back), with the unread count',
        params: z.object({ id: z.string().min(1).max(64) }),
        querystring: chatPageQuerySchema,
        response: { 200: chatPageSchema, ...problemResponses },
      },
    },
    (request) => chat.page(request.user, request.params.id, request.query),
  );
};
