import { z } from 'zod';
import { emailSchema, newPasswordSchema, roleSchema } from './auth.ts';

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
