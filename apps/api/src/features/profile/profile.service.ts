import {
  type Me,
  type PasswordChangeRequest,
  type PasswordChangeResponse,
  type ProfileUpdate,
  separatorsProblem,
  type UserPreferences,
} from '@fvg/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { problems } from '../../http/problem.ts';
import { zoneKnownToDatabase } from '../../records/time-zone.ts';
import { toMe } from '../auth/auth.service.ts';
import { passwordPolicyMessage } from '../auth/password-policy.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { type BucketRule, createRateLimiter } from '../auth/rate-limit.ts';
import type { Sessions } from '../auth/sessions.ts';
import type { TokenSigner } from '../auth/tokens.ts';
import type { Mailer } from '../mail/mailer.ts';
import { type SessionUser, usersRepository } from '../users/users.repository.ts';
import { profileRepository } from './profile.repository.ts';

export interface ProfileOptions {
  publicUrl: string;
  /** The sign-in limits (ADR 0016): a stolen session guessing the current password gets no more tries. */
  loginMaxAttempts: number;
  loginWindowSeconds: number;
}

export interface ProfileDeps {
  signer: TokenSigner;
  sessions: Sessions;
  mailer: Mailer;
  log: FastifyBaseLogger;
}

const WRONG_CURRENT = 'Your current password is not correct.';

export function profileService(db: Db, deps: ProfileDeps, opts: ProfileOptions) {
  const repo = profileRepository(db);
  const users = usersRepository(db);
  const limiter = createRateLimiter(db);

  return {
    preferences: (userId: string): Promise<UserPreferences> => repo.preferences(userId),

    async me(user: SessionUser): Promise<Me> {
      return toMe(user, await repo.preferences(user.id));
    },

    /** Name and preferences; the separators are checked on the result, so a patch of one cannot collide. */
    async update(user: SessionUser, input: ProfileUpdate): Promise<Me> {
      const current = await repo.preferences(user.id);
      const next: UserPreferences = { ...current, ...input.preferences };
      const collision = separatorsProblem(next);
      if (collision) {
        const field =
          input.preferences?.thousandsSeparator !== undefined
            ? 'preferences.thousandsSeparator'
            : 'preferences.decimalSeparator';
        throw problems.validation([{ field, message: collision }]);
      }
      const zone = input.preferences?.timeZone;
      if (zone && !(await zoneKnownToDatabase(db, zone))) {
        throw problems.validation([
          { field: 'preferences.timeZone', message: 'This time zone is not known to the database' },
        ]);
      }
      await inTransaction(db, async (trx) => {
        const inTrx = profileRepository(trx);
        if (input.name !== undefined && input.name !== user.name) await inTrx.rename(user.id, input.name);
        if (input.preferences) await inTrx.savePreferences(user.id, next);
      });
      return toMe({ ...user, name: input.name ?? user.name }, next);
    },

    /**
     * Checks the current password (limited like a sign-in), sets the new one through the product's one
     * policy, mails the owner, ends every other session (tokens issued before the change are refused
     * from now on, open hub connections close) and hands this session a fresh token.
     */
    async changePassword(
      user: SessionUser,
      input: PasswordChangeRequest,
    ): Promise<{ answer: PasswordChangeResponse; endOpenConnections: () => Promise<void> }> {
      const rules: BucketRule[] =
        opts.loginMaxAttempts > 0
          ? [
              {
                key: `pwdchange:account:${user.id}`,
                max: opts.loginMaxAttempts,
                windowSeconds: opts.loginWindowSeconds,
                backoff: true,
              },
            ]
          : [];
      const wait = rules.length > 0 ? await limiter.take(rules) : 0;
      if (wait > 0) {
        throw problems.tooManyRequests(wait, `Too many wrong passwords. Try again in ${wait} seconds.`);
      }
      const row = await users.findByEmail(user.email);
      if (!(await verifyPassword(row?.password_hash ?? null, input.currentPassword))) {
        await limiter.fail(rules);
        throw problems.validation([{ field: 'currentPassword', message: WRONG_CURRENT }], WRONG_CURRENT);
      }
      await limiter.succeed(rules);
      if (input.newPassword === input.currentPassword) {
        throw problems.validation([
          { field: 'newPassword', message: 'Choose a password different from your current one.' },
        ]);
      }
      const refused = await passwordPolicyMessage(input.newPassword, { email: user.email });
      if (refused) throw problems.validation([{ field: 'newPassword', message: refused }]);

      const passwordHash = await hashPassword(input.newPassword);
      const changedAt = new Date();
      await inTransaction(db, async (trx) => {
        await trx
          .updateTable('users')
          .set({ password_hash: passwordHash, password_changed_at: changedAt, updated_at: changedAt })
          .where('id', '=', user.id)
          .execute();
        // A reset link mailed before the change would otherwise still set a password over this one.
        await trx
          .updateTable('password_reset_tokens')
          .set({ used_at: changedAt })
          .where('user_id', '=', user.id)
          .where('used_at', 'is', null)
          .execute();
        // Queued with the change itself: no mail about a change that rolled back, no change without one.
        await deps.mailer.queue(
          {
            to: user.email,
            subject: 'Your FVG password was changed',
            text: [
              `Hello ${user.name},`,
              '',
              `The password of your FVG account was changed on ${changedAt.toUTCString()}.`,
              'Every other device signed in to your account has been signed out.',
              '',
              'If you did not change it, someone else knows your password: reset it now at',
              `${opts.publicUrl}/password-forgot`,
              'and tell your administrator.',
            ].join('\n'),
          },
          trx,
        );
      });
      deps.log.info({ userId: user.id }, 'password changed by its owner');
      // Tokens issued before `changedAt` are refused from the commit on; this session's new one is not.
      const Token = await deps.signer.sign({
        sub: user.id,
        email: user.email,
        role: user.role,
        party: user.party_id,
        cw_access: user.cw_access,
      });
      const answer = {
        Token,
        message: 'Your password has been changed. Other devices have been signed out.',
      };
      return {
        answer,
        /**
         * Closes the user's open hub connections on every node. The route calls it once the answer
         * has left: this browser then holds its new token before its own connection closes, and
         * does not take the close for the end of its session.
         */
        endOpenConnections: () => deps.sessions.revoke(user.id, 'password-changed'),
      };
    },
  };
}
export type ProfileService = ReturnType<typeof profileService>;
