import {
  loginRequestSchema,
  loginResponseSchema,
  meSchema,
  messageResponseSchema,
  problemSchema,
  pwdLinkRequestSchema,
  pwdResetRequestSchema,
  type UserPreferences,
} from '@fvg/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bearerToken } from '../../plugins/authenticate.ts';
import { type AuthService, toMe } from './auth.service.ts';

const errors = { 400: problemSchema, 401: problemSchema, 429: problemSchema };

export const authRoutes: FastifyPluginAsyncZod<{
  auth: AuthService;
  /** The user's profile preferences, which `me` carries (features/profile). */
  preferences: (userId: string) => Promise<UserPreferences>;
}> = async (app, { auth, preferences }) => {
  // Reset links still being issued after their answer must finish before the database goes away.
  app.addHook('onClose', () => auth.settle());

  app.post(
    '/auth/access_token',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in: exchange credentials for a bearer token',
        body: loginRequestSchema,
        response: { 200: loginResponseSchema, ...errors },
      },
    },
    (request) => auth.login(request.body, request.ip),
  );

  app.get(
    '/me',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user',
        security: [{ bearer: [] }],
        response: { 200: meSchema, 401: problemSchema },
      },
    },
    async (request) => toMe(request.user, await preferences(request.user.id)),
  );

  app.post(
    '/auth/sign-out',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['auth'],
        summary: 'Sign out: this bearer token ends on the server (the user’s other sessions stay)',
        security: [{ bearer: [] }],
        response: { 204: z.null(), 401: problemSchema },
      },
    },
    async (request, reply) => {
      await auth.signOut(bearerToken(request) as string, request.user);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/auth/pwd/link',
    {
      schema: {
        tags: ['auth'],
        summary: 'Mail a single-use password reset link (same answer whether or not the account exists)',
        body: pwdLinkRequestSchema,
        response: { 200: messageResponseSchema, 400: problemSchema },
      },
    },
    (request) => auth.requestPasswordLink(request.body, request.ip),
  );

  app.post(
    '/auth/pwd/reset',
    {
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with a reset token',
        body: pwdResetRequestSchema,
        response: { 200: messageResponseSchema, 400: problemSchema },
      },
    },
    (request) => auth.resetPassword(request.body),
  );
};
