import { randomBytes } from 'node:crypto';
import {
  type LoginRequest,
  type LoginResponse,
  type Me,
  type MessageResponse,
  PWD_LINK_ANSWER,
  type PwdLinkRequest,
  type PwdResetRequest,
  RESET_TOKEN_TTL_MINUTES,
  type UserPreferences,
} from '@fvg/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { HttpProblem, problems } from '../../http/problem.ts';
import type { Mailer } from '../mail/mailer.ts';
import { type SessionUser, usersRepository } from '../users/users.repository.ts';
import { authRepository } from './auth.repository.ts';
import { assertPasswordPolicy } from './password-policy.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { type BucketRule, clientAddressKey, createRateLimiter } from './rate-limit.ts';
import type { Sessions } from './sessions.ts';
import {
  type AccessToken,
  createTokenSigner,
  hashOpaqueToken,
  newOpaqueToken,
  type TokenSigner,
} from './tokens.ts';

export interface AuthOptions {
  publicUrl: string;
  jwtSecret?: string | undefined;
  tokenTtlHours: number;
  loginMaxAttempts: number;
  loginWindowSeconds: number;
  /** Told of every refused sign-in (the metrics count them, ADR 0055). */
  onSignInRefused?: (reason: 'wrong_credentials' | 'rate_limited') => void;
}

const WRONG_CREDENTIALS = 'The email or password is incorrect.';
const RESET_MAILS_PER_HOUR = 5;
/** An address counts as the owner's for this long after their last successful sign-in from it. */
const KNOWN_ADDRESS_DAYS = 90;
/**
 * One address may fail this many times LOGIN_MAX_ATTEMPTS across accounts per window (many users
 * behind one proxy), and one account this many times from addresses it never signed in from.
 */
const ADDRESS_LIMIT_FACTOR = 10;
const ACCOUNT_LIMIT_FACTOR = 4;

/**
 * A verified token's user as it stands now: active, the token not signed out, issued after the last
 * password change and after an administrator last ended the user's sessions (ADR 0052).
 */
function standing(claims: AccessToken, user: SessionUser | undefined, ended: boolean): SessionUser {
  if (!user?.active) throw problems.unauthorized('Your session is not valid. Sign in again.');
  if (ended) throw problems.unauthorized('You have signed out. Sign in again.');
  // A password change ends every session issued before it. Exact to the millisecond (our tokens carry
  // a fractional iat), so the token the changing session gets back works and one of a second before does not.
  if (claims.iat < user.password_changed_at.getTime() / 1000) {
    throw problems.unauthorized('Your password was changed. Sign in again.');
  }
  if (user.sessions_ended_at && claims.iat < user.sessions_ended_at.getTime() / 1000) {
    throw problems.unauthorized('An administrator ended your session. Sign in again.');
  }
  return user;
}

export function toMe(user: SessionUser, preferences: UserPreferences): Me {
  return {
    id: user.id,
    Email: user.email,
    name: user.name,
    role: user.role,
    party: user.party,
    access: { cw_access: user.cw_access },
    preferences,
  };
}

export async function createAuthService(
  db: Db,
  mailer: Mailer,
  log: FastifyBaseLogger,
  opts: AuthOptions,
  sessions: Sessions,
) {
  const users = usersRepository(db);
  const repo = authRepository(db);
  const secret = opts.jwtSecret ?? (await repo.jwtSecret(() => randomBytes(48).toString('base64url')));
  const signer: TokenSigner = createTokenSigner(secret, opts.tokenTtlHours);
  const loginLimiter = createRateLimiter(db);
  const mailLimiter = createRateLimiter(db);
  /** Reset-link work still running after its answer left; awaited on shutdown. */
  const background = new Set<Promise<void>>();

  /** The sign-in limits of ADR 0016 for this account and address. */
  async function loginRules(email: string, address: string): Promise<BucketRule[]> {
    const max = opts.loginMaxAttempts;
    const windowSeconds = opts.loginWindowSeconds;
    // The owner's usual address passes the address and account limits: only the attempts from
    // this very address against this account (first rule) can slow them down.
    const known = await repo.isKnownAddress(email, address, KNOWN_ADDRESS_DAYS);
    return [
      { key: `login:account:${email}|${address}`, max, windowSeconds, backoff: true },
      {
        key: `login:address:${address}`,
        max: max * ADDRESS_LIMIT_FACTOR,
        windowSeconds,
        backoff: true,
        enforce: !known,
      },
      {
        key: `login:account:${email}`,
        max: max * ACCOUNT_LIMIT_FACTOR,
        windowSeconds,
        backoff: true,
        enforce: !known,
      },
    ];
  }

  async function sendResetLink(email: string, address: string): Promise<void> {
    const buckets = [`pwdlink:account:${email}`, `pwdlink:address:${address}`];
    const rules = buckets.map((key) => ({ key, max: RESET_MAILS_PER_HOUR, windowSeconds: 3600 }));
    if ((await mailLimiter.take(rules)) > 0) {
      log.info('password reset link not sent: too many requests for this account or address');
      return;
    }
    const user = await users.findByEmail(email);
    if (!user?.active) return;
    const { token, hash } = newOpaqueToken();
    const link = `${opts.publicUrl}/guest/password/reset?token=${token}`;
    // One transaction: the mail is queued only with the token it carries.
    await inTransaction(db, async (trx) => {
      await authRepository(trx).insertResetToken(user.id, hash, RESET_TOKEN_TTL_MINUTES);
      await mailer.queue(
        {
          to: user.email,
          subject: 'Reset your FVG password',
          text: [
            `Hello ${user.name},`,
            '',
            'Someone (hopefully you) asked to reset the password of your FVG account.',
            `Open this link within ${RESET_TOKEN_TTL_MINUTES} minutes to choose a new password:`,
            '',
            link,
            '',
            'The link works once. If you did not ask for it, ignore this mail: your password stays as it is.',
          ].join('\n'),
        },
        trx,
      );
    });
    log.info({ userId: user.id }, 'password reset link issued');
  }

  return {
    signer,

    async login({ email, password }: LoginRequest, ip: string): Promise<LoginResponse> {
      const address = clientAddressKey(ip);
      const rules = opts.loginMaxAttempts > 0 ? await loginRules(email, address) : [];
      // The slot is taken before the password is checked, so parallel guesses cannot all get through.
      const wait = rules.length > 0 ? await loginLimiter.take(rules) : 0;
      if (wait > 0) {
        opts.onSignInRefused?.('rate_limited');
        throw problems.tooManyRequests(
          wait,
          `Too many failed sign-in attempts. Try again in ${wait} seconds.`,
        );
      }
      const user = await users.findByEmail(email);
      const ok = (await verifyPassword(user?.password_hash ?? null, password)) && user?.active === true;
      if (!ok || !user) {
        await loginLimiter.fail(rules);
        opts.onSignInRefused?.('wrong_credentials');
        throw problems.unauthorized(WRONG_CREDENTIALS);
      }
      await loginLimiter.succeed(rules);
      await repo.rememberAddress(user.id, address, KNOWN_ADDRESS_DAYS);
      await users.touchLogin(user.id);
      const Token = await signer.sign({
        sub: user.id,
        email: user.email,
        role: user.role,
        party: user.party_id,
        cw_access: user.cw_access,
      });
      return { Token };
    },

    /** The signed-in user behind a bearer token; 401 for anything but a valid token of an active user. */
    async authenticate(token: string | undefined): Promise<SessionUser> {
      const claims = token ? await signer.verify(token) : undefined;
      if (!claims || !token)
        throw problems.unauthorized(token ? 'Your session is not valid. Sign in again.' : undefined);
      // One query: the user, and whether this very token was signed out.
      const hash = hashOpaqueToken(token);
      const found = await users.findSessionUsers([claims.sub], [hash]);
      return standing(claims, found.users.get(claims.sub), found.endedTokens.has(hash));
    },

    /**
     * `authenticate` for many tokens with one user query (the hub's periodic re-check of its open
     * connections): per token, in order, the user or the 401 problem `authenticate` would throw.
     */
    async authenticateMany(tokens: (string | undefined)[]): Promise<(SessionUser | HttpProblem)[]> {
      const claims = await Promise.all(tokens.map((t) => (t ? signer.verify(t) : undefined)));
      const hashes = tokens.map((t) => (t ? hashOpaqueToken(t) : ''));
      const found = await users.findSessionUsers(
        [...new Set(claims.flatMap((c) => (c ? [c.sub] : [])))],
        [...new Set(hashes.filter((h, i) => h && claims[i]))],
      );
      return claims.map((c, i) => {
        try {
          if (!c)
            throw problems.unauthorized(tokens[i] ? 'Your session is not valid. Sign in again.' : undefined);
          return standing(c, found.users.get(c.sub), found.endedTokens.has(hashes[i] as string));
        } catch (e) {
          if (e instanceof HttpProblem) return e;
          throw e;
        }
      });
    },

    /**
     * Sign-out: this token ends on the server (every node refuses it from the next request, its hub
     * connections close); the user's other tokens stay valid. Called with a token `authenticate`
     * accepted, so it is genuine and current.
     */
    async signOut(token: string, user: SessionUser): Promise<void> {
      const claims = await signer.verify(token);
      if (!claims) throw problems.unauthorized('Your session is not valid. Sign in again.');
      const hash = hashOpaqueToken(token);
      await inTransaction(db, async (trx) => {
        // Rows are needed only until their token would have expired anyway.
        await trx.deleteFrom('ended_tokens').where('expires_at', '<', new Date()).execute();
        await trx
          .insertInto('ended_tokens')
          .values({ token_hash: hash, user_id: user.id, expires_at: new Date(claims.exp * 1000) })
          .onConflict((oc) => oc.column('token_hash').doNothing())
          .execute();
      });
      await sessions.revoke(user.id, 'signed-out', hash);
    },

    /**
     * Answers at once and does the lookup, token and mail afterwards, so the answer takes the same
     * time whether or not the account exists. Until the job queue arrives this is an in-process task;
     * a failure is logged, never dropped silently.
     */
    requestPasswordLink({ email }: PwdLinkRequest, ip: string): MessageResponse {
      const task = sendResetLink(email, clientAddressKey(ip)).catch((e: unknown) =>
        log.error({ err: e }, 'password reset link failed'),
      );
      background.add(task);
      void task.finally(() => background.delete(task));
      return { message: PWD_LINK_ANSWER };
    },

    /** Resolves when the reset-link work started so far has finished (shutdown, tests). */
    async settle(): Promise<void> {
      while (background.size > 0) await Promise.all(background);
    },

    async resetPassword({ token, password }: PwdResetRequest): Promise<MessageResponse> {
      const passwordHash = await hashPassword(password);
      const { email, userId } = await inTransaction(db, async (trx) => {
        const row = await trx
          .selectFrom('password_reset_tokens')
          .innerJoin('users', 'users.id', 'password_reset_tokens.user_id')
          .select([
            'password_reset_tokens.id',
            'password_reset_tokens.user_id',
            'password_reset_tokens.used_at',
            'password_reset_tokens.expires_at',
            'users.email',
            'users.active',
          ])
          .where('password_reset_tokens.token_hash', '=', hashOpaqueToken(token))
          .forUpdate()
          .executeTakeFirst();
        const fail = (message: string) => problems.badRequest(message, [{ field: 'token', message }]);
        if (!row?.active) throw fail('This reset link is not valid. Ask for a new one.');
        if (row.used_at) throw fail('This reset link has already been used. Ask for a new one.');
        if (row.expires_at.getTime() < Date.now())
          throw fail('This reset link has expired. Ask for a new one.');
        await assertPasswordPolicy(password, { email: row.email });
        await trx
          .updateTable('password_reset_tokens')
          .set({ used_at: new Date() })
          .where('id', '=', row.id)
          .execute();
        await usersRepository(trx).setPassword(row.user_id, passwordHash);
        return { email: row.email, userId: row.user_id };
      });
      // Tokens issued before the change stop working at the next request; open hub connections end now.
      await sessions.revoke(userId, 'password-changed');
      await loginLimiter.clear(`login:account:${email.toLowerCase()}`);
      return { message: 'Your password has been changed. Sign in with your new password.' };
    },
  };
}
export type AuthService = Awaited<ReturnType<typeof createAuthService>>;
