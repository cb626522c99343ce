import { z } from 'zod';
import { emailSchema, newPasswordSchema, roleSchema } from './auth.ts';
import { queryInt } from './primitives.ts';

/** A new user, as the operator command and (later) the admin screen create it. */
export const userCreateSchema = z
  .strictObject({
    email: emailSchema,
    password: newPasswordSchema,
    name: z.string().trim().min(1).max(200).optional(),
    role: roleSchema,
    /** Code of the party a customer user belongs to. */
    party: z.string().trim().min(1).max(40).optional(),
    cwAccess: z.boolean().default(false),
  })
  .superRefine((u, ctx) => {
    if (u.role === 'customer' && !u.party) {
      ctx.addIssue({
        code: 'custom',
        path: ['party'],
        message: 'A customer user needs the code of their party',
      });
    }
  });
export type UserCreate = z.input<typeof userCreateSchema>;

/** A user as the admin screen lists and edits it. */
export const userAdminSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: roleSchema,
  party: z.object({ id: z.string(), code: z.string(), name: z.string() }).nullable(),
  cwAccess: z.boolean(),
  active: z.boolean(),
  lastLoginAt: z.string().nullable(),
  createdAt: z.string(),
});
export type UserAdmin = z.infer<typeof userAdminSchema>;

/** `POST /api/users/invite`: creates the user without a password and mails a link to choose one. */
export const userInviteSchema = z
  .strictObject({
    email: emailSchema,
    name: z.string().trim().min(1, 'Enter a name').max(200),
    role: roleSchema,
    partyId: z.uuid('Choose a party').nullish(),
    cwAccess: z.boolean().default(false),
  })
  .superRefine((u, ctx) => {
    if (u.role === 'customer' && !u.partyId)
      ctx.addIssue({ code: 'custom', path: ['partyId'], message: 'A customer user belongs to a party' });
  });
export type UserInvite = z.input<typeof userInviteSchema>;

/** `PATCH /api/users/{id}`. */
export const userAdminUpdateSchema = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  role: roleSchema.optional(),
  partyId: z.uuid().nullish(),
  cwAccess: z.boolean().optional(),
  active: z.boolean().optional(),
});
export type UserAdminUpdate = z.input<typeof userAdminUpdateSchema>;

export const userListQuerySchema = z.object({
  page: queryInt({ min: 1, max: 100_000 }).default(1),
  pageSize: queryInt({ min: 1, max: 200 }).default(50),
  q: z.string().trim().max(200).optional(),
  role: roleSchema.optional(),
});
export type UserListQuery = z.infer<typeof userListQuerySchema>;

/** Staff users to choose a dossier handler from (`GET /api/users/handlers`). */
export const handlerSchema = z.object({ id: z.string(), name: z.string() });
