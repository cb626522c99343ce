import type {
  ListResponse,
  UserAdmin,
  UserListQuery,
  userAdminUpdateSchema,
  userInviteSchema,
} from '@fvg/contracts';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { problems } from '../../http/problem.ts';
import { diff, writeAudit } from '../../records/audit.ts';
import type { RecordEvents } from '../../records/events.ts';
import { pgConstraintProblem } from '../../records/mutation.ts';
import { requireAdmin, requireStaff } from '../../records/scope.ts';
import { authRepository } from '../auth/auth.repository.ts';
import type { Sessions } from '../auth/sessions.ts';
import { newOpaqueToken } from '../auth/tokens.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { SessionUser } from './users.repository.ts';

const INVITE_TTL_MINUTES = 7 * 24 * 60;

interface Row {
  id: string;
  email: string;
  name: string;
  role: UserAdmin['role'];
  party_id: string | null;
  party_code: string | null;
  party_name: string | null;
  cw_access: boolean;
  active: boolean;
  last_login_at: Date | null;
  created_at: Date;
}

function toUser(r: Row): UserAdmin {
  return {
    id: r.id,
    email: r.email,
    name: r.name,
    role: r.role,
    party:
      r.party_id && r.party_code && r.party_name
        ? { id: r.party_id, code: r.party_code, name: r.party_name }
        : null,
    cwAccess: r.cw_access,
    active: r.active,
    lastLoginAt: r.last_login_at?.toISOString() ?? null,
    createdAt: r.created_at.toISOString(),
  };
}

const FIELDS = ['name', 'role', 'partyId', 'cwAccess', 'active'] as const;

/** The admin's management of users: list, invite by mail link, change role, party, access, deactivate. */
export function usersAdminService(
  db: Db,
  mailer: Mailer,
  events: RecordEvents,
  publicUrl: string,
  sessions: Sessions,
) {
  const select = () =>
    db
      .selectFrom('users as u')
      .leftJoin('parties as p', 'p.id', 'u.party_id')
      .select([
        'u.id',
        'u.email',
        'u.name',
        'u.role',
        'u.party_id',
        'p.code as party_code',
        'p.name as party_name',
        'u.cw_access',
        'u.active',
        'u.last_login_at',
        'u.created_at',
      ]);

  async function one(id: string): Promise<UserAdmin> {
    const row = await select().where('u.id', '=', id).executeTakeFirst();
    if (!row) throw problems.notFound('This user does not exist.');
    return toUser(row as Row);
  }

  return {
    async list(user: SessionUser, q: UserListQuery): Promise<ListResponse<UserAdmin>> {
      requireAdmin(user);
      let query = select();
      if (q.role) query = query.where('u.role', '=', q.role);
      if (q.q) {
        const like = `%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        query = query.where((eb) =>
          eb.or([eb('u.email', 'ilike', like), eb('u.name', 'ilike', like), eb('p.code', 'ilike', like)]),
        );
      }
      const [rows, count] = await Promise.all([
        query
          .orderBy('u.name')
          .orderBy('u.id')
          .limit(q.pageSize)
          .offset((q.page - 1) * q.pageSize)
          .execute(),
        query.clearSelect().select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
      ]);
      return {
        items: rows.map((r) => toUser(r as Row)),
        total: count.n,
        totalIsEstimate: false,
        page: q.page,
        pageSize: q.pageSize,
        nextCursor: null,
      };
    },

    async handlers(user: SessionUser) {
      requireStaff(user);
      return db
        .selectFrom('users')
        .select(['id', 'name'])
        .where('role', 'in', ['admin', 'staff'])
        .where('active', '=', true)
        .orderBy('name')
        .execute();
    },

    async invite(user: SessionUser, input: z.output<typeof userInviteSchema>): Promise<UserAdmin> {
      requireAdmin(user);
      const { token, hash } = newOpaqueToken();
      const id = await inTransaction(db, async (trx) => {
        const row = await trx
          .insertInto('users')
          .values({
            email: input.email,
            name: input.name,
            role: input.role,
            party_id: input.role === 'customer' ? (input.partyId ?? null) : null,
            cw_access: input.cwAccess,
            password_hash: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await authRepository(trx).insertResetToken(row.id, hash, INVITE_TTL_MINUTES);
        await writeAudit(trx, {
          kind: 'user',
          id: row.id,
          action: 'invited',
          actorId: user.id,
          changes: diff({}, input, FIELDS),
        });
        // In the invite's transaction: no mail for an invite that did not happen.
        await mailer.queue(
          {
            to: input.email,
            subject: 'You are invited to FVG',
            text: [
              `Hello ${input.name},`,
              '',
              `${user.name} invited you to FVG. Choose your password with this link (valid for 7 days, usable once):`,
              '',
              `${publicUrl}/guest/password/reset?token=${token}`,
            ].join('\n'),
          },
          trx,
        );
        return row.id;
      }).catch((e: unknown) =>
        pgConstraintProblem(e, {
          users_email_key: { field: 'email', message: 'This email is already in use' },
          users_party_id_fkey: { field: 'partyId', message: 'No such party' },
        }),
      );
      events.publish({ kind: 'user', id, action: 'created' });
      return one(id);
    },

    async update(
      user: SessionUser,
      id: string,
      input: z.output<typeof userAdminUpdateSchema>,
    ): Promise<UserAdmin> {
      requireAdmin(user);
      const before = await one(id);
      if (id === user.id && (input.active === false || (input.role && input.role !== 'admin'))) {
        throw problems.conflict('You cannot deactivate yourself or remove your own admin role.');
      }
      const role = input.role ?? before.role;
      const partyId = input.partyId !== undefined ? input.partyId : (before.party?.id ?? null);
      if (role === 'customer' && !partyId)
        throw problems.validation([{ field: 'partyId', message: 'A customer user belongs to a party' }]);
      await inTransaction(db, async (trx) => {
        await trx
          .updateTable('users')
          .set({
            ...(input.name !== undefined ? { name: input.name } : {}),
            role,
            party_id: role === 'customer' ? partyId : null,
            ...(input.cwAccess !== undefined ? { cw_access: input.cwAccess } : {}),
            ...(input.active !== undefined ? { active: input.active } : {}),
            updated_at: new Date(),
          })
          .where('id', '=', id)
          .execute();
        const beforeFields = { ...before, partyId: before.party?.id ?? null };
        await writeAudit(trx, {
          kind: 'user',
          id,
          action: 'updated',
          actorId: user.id,
          changes: diff(beforeFields, input, FIELDS),
        });
      }).catch((e: unknown) =>
        pgConstraintProblem(e, { users_party_id_fkey: { field: 'partyId', message: 'No such party' } }),
      );
      events.publish({ kind: 'user', id, action: 'updated' });
      // Open hub connections hold the old standing (and groups derived from it): end them on every node.
      if (input.active === false) await sessions.revoke(id, 'deactivated');
      else if (
        role !== before.role ||
        (role === 'customer' ? partyId : null) !== (before.party?.id ?? null) ||
        (input.cwAccess !== undefined && input.cwAccess !== before.cwAccess)
      )
        await sessions.revoke(id, 'access-changed');
      return one(id);
    },

    /**
     * Ends every session of the user now (ADR 0052): every token issued before this moment is refused
     * on every node from its next request, and the user's hub connections close; signing in again
     * works. An administrator may end their own sessions too (a lost laptop), which signs them out.
     */
    async endSessions(user: SessionUser, id: string): Promise<void> {
      requireAdmin(user);
      await one(id);
      await inTransaction(db, async (trx) => {
        await trx.updateTable('users').set({ sessions_ended_at: new Date() }).where('id', '=', id).execute();
        await writeAudit(trx, { kind: 'user', id, action: 'sessions-ended', actorId: user.id, changes: [] });
      });
      await sessions.revoke(id, 'sessions-ended');
    },
  };
}
export type UsersAdminService = ReturnType<typeof usersAdminService>;
