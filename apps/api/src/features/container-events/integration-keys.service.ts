import { createHash, randomBytes } from 'node:crypto';
import { INTEGRATION_KEY_PREFIX, type IntegrationKey, type IntegrationKeyCreated } from '@fvg/contracts';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { HttpProblem, problems } from '../../http/problem.ts';
import { writeAudit } from '../../records/audit.ts';
import { requireAdmin } from '../../records/scope.ts';
import type { SessionUser } from '../users/users.repository.ts';
import { integrationKeysRepository, toIntegrationKey } from './integration-keys.repository.ts';

/** `fvg_` + 32 random bytes in base64url (43 characters). */
const KEY_PATTERN = new RegExp(`^${INTEGRATION_KEY_PREFIX}[A-Za-z0-9_-]{43}$`);
/** Characters of the key shown in lists to tell keys apart: the prefix and 8 of the 256 random bits' text. */
const SHOWN = INTEGRATION_KEY_PREFIX.length + 8;

export function hashIntegrationKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function invalidKey(): HttpProblem {
  return new HttpProblem(401, 'Unauthorized', 'This API key is not valid or has been revoked.', {
    headers: { 'www-authenticate': 'ApiKey' },
  });
}

/**
 * API keys of integrations (terminals, carriers, visibility platforms) that post container events.
 * The key is shown once at creation and stored only as its SHA-256: a key has 256 random bits, so a
 * fast hash is as safe as a slow one and lets every request find its key by an index lookup.
 */
export function integrationKeysService(db: Db) {
  const repo = integrationKeysRepository(db);

  async function getOr404(id: string): Promise<IntegrationKey> {
    const row = await repo.find(id);
    if (!row) throw problems.notFound('This API key does not exist.');
    return toIntegrationKey(row);
  }

  return {
    async create(user: SessionUser, input: { name: string }): Promise<IntegrationKeyCreated> {
      requireAdmin(user);
      const key = `${INTEGRATION_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
      const id = await inTransaction(db, async (trx) => {
        const created = await integrationKeysRepository(trx).insert({
          name: input.name,
          prefix: key.slice(0, SHOWN),
          hash: hashIntegrationKey(key),
          createdBy: user.id,
        });
        await writeAudit(trx, {
          kind: 'integration-key',
          id: created,
          action: 'created',
          actorId: user.id,
          changes: [{ field: 'name', from: null, to: input.name }],
        });
        return created;
      });
      return { ...(await getOr404(id)), key };
    },

    async list(user: SessionUser): Promise<IntegrationKey[]> {
      requireAdmin(user);
      return (await repo.list()).map(toIntegrationKey);
    },

    /** Revoked at once: the next request with the key answers 401 (every request looks the key up). */
    async revoke(user: SessionUser, id: string): Promise<void> {
      requireAdmin(user);
      const key = await getOr404(id);
      if (key.revokedAt) return;
      await inTransaction(db, async (trx) => {
        if (!(await integrationKeysRepository(trx).revoke(id))) return;
        await writeAudit(trx, {
          kind: 'integration-key',
          id,
          action: 'revoked',
          actorId: user.id,
          changes: [{ field: 'revokedAt', from: null, to: new Date().toISOString() }],
        });
      });
    },

    /** The integration a key belongs to, or 401. */
    async authenticate(key: string): Promise<{ id: string; name: string }> {
      if (!KEY_PATTERN.test(key)) throw invalidKey();
      const found = await repo.use(hashIntegrationKey(key));
      if (!found) throw invalidKey();
      return found;
    },
  };
}
export type IntegrationKeysService = ReturnType<typeof integrationKeysService>;
