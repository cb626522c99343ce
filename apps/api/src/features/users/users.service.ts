import { type UserCreate, userCreateSchema } from '@fvg/contracts';
import type { Db } from '../../db/database.ts';
import { problems } from '../../http/problem.ts';
import { zodFieldErrors } from '../../http/validation.ts';
import { assertPasswordPolicy } from '../auth/password-policy.ts';
import { hashPassword } from '../auth/passwords.ts';
import { usersRepository } from './users.repository.ts';

export function usersService(db: Db) {
  const repo = usersRepository(db);
  return {
    /**
     * Creates a user; throws a 400 problem for invalid input, a password the policy refuses or an
     * unknown party, 409 for a taken email.
     */
    async create(input: UserCreate): Promise<{ id: string; email: string }> {
      const parsed = userCreateSchema.safeParse(input);
      if (!parsed.success) throw problems.validation(zodFieldErrors(parsed.error));
      const u = parsed.data;
      await assertPasswordPolicy(u.password, { email: u.email });
      let partyId: string | null = null;
      if (u.party) {
        partyId = (await repo.partyIdByCode(u.party)) ?? null;
        if (!partyId) {
          throw problems.validation([{ field: 'party', message: `No party has the code "${u.party}"` }]);
        }
      }
      if (await repo.findByEmail(u.email)) {
        throw problems.conflict(`A user with the email ${u.email} already exists.`, [
          { field: 'email', message: 'This email is already in use' },
        ]);
      }
      const row = await repo
        .insert({
          email: u.email,
          name: u.name ?? u.email.split('@')[0] ?? u.email,
          password_hash: await hashPassword(u.password),
          role: u.role,
          party_id: partyId,
          cw_access: u.cwAccess,
        })
        .catch((e: unknown) => {
          // A concurrent insert of the same email loses on the unique index.
          if ((e as { code?: string }).code === '23505') {
            throw problems.conflict(`A user with the email ${u.email} already exists.`, [
              { field: 'email', message: 'This email is already in use' },
            ]);
          }
          throw e;
        });
      return { id: row.id, email: u.email };
    },
  };
}
