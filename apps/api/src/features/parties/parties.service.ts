import {
  issueParams,
  NO_INTERNAL_FIELDS,
  type Party,
  type PartyListQuery,
  type partyCreateSchema,
  type partyUpdateSchema,
  peppolPairProblem,
} from '@fvg/contracts';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { problems } from '../../http/problem.ts';
import { diff, historyOf, writeAudit } from '../../records/audit.ts';
import type { RecordEvents } from '../../records/events.ts';
import { columnsOf, pgConstraintProblem, versionedUpdate } from '../../records/mutation.ts';
import { requireAdmin, requireStaff, scopeOf } from '../../records/scope.ts';
import type { SessionUser } from '../users/users.repository.ts';
import { partiesRepository } from './parties.repository.ts';

type PartyCreate = z.output<typeof partyCreateSchema>;
type PartyUpdate = z.output<typeof partyUpdateSchema>;

/** API field → column. The audit trail records API field names. */
const COLUMNS = columnsOf([
  'code',
  'name',
  'kinds',
  'countryCode',
  'vatNumber',
  'eori',
  'peppolScheme',
  'peppolId',
  'street',
  'postalCode',
  'city',
  'email',
  'phone',
  'contacts',
]);
const FIELDS = Object.keys(COLUMNS) as (keyof typeof COLUMNS)[];

export { FIELDS as PARTY_FIELDS };

export function toColumns(input: Partial<PartyCreate>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const f of FIELDS) {
    if (input[f] === undefined) continue;
    row[COLUMNS[f]] = f === 'contacts' ? JSON.stringify(input[f]) : input[f];
  }
  return row;
}

const CODE_TAKEN = { parties_code_key: { field: 'code', message: 'Another party already has this code' } };

export function partiesService(db: Db, events: RecordEvents) {
  const repo = partiesRepository(db);

  async function getOr404(user: SessionUser, id: string): Promise<Party> {
    const party = await repo.get(scopeOf(user), id);
    if (!party) throw problems.notFound('This party does not exist.');
    return party;
  }

  return {
    list: (user: SessionUser, query: PartyListQuery) => repo.list(scopeOf(user), query),
    all: (user: SessionUser, query: PartyListQuery) => repo.all(scopeOf(user), query),
    get: getOr404,

    /** The id of the party of that code (any case), or null: the routes' address by code. */
    async idOf(code: string): Promise<string | null> {
      const row = await db
        .selectFrom('parties')
        .select('id')
        // The unique index is on upper(code).
        .where(sql`upper(code)`, '=', code.trim().toUpperCase())
        .executeTakeFirst();
      return row?.id ?? null;
    },

    async create(user: SessionUser, input: PartyCreate): Promise<Party> {
      requireStaff(user);
      const id = await inTransaction(db, async (trx) => {
        const row = await partiesRepository(trx).insert({
          ...toColumns(input),
          created_by: user.id,
          updated_by: user.id,
        });
        await writeAudit(trx, {
          kind: 'party',
          id: row.id,
          action: 'created',
          actorId: user.id,
          changes: diff({}, input as Record<string, unknown>, FIELDS),
        });
        return row.id;
      }).catch((e: unknown) => pgConstraintProblem(e, CODE_TAKEN));
      events.publish({ kind: 'party', id, action: 'created', partyIds: [id] });
      return getOr404(user, id);
    },

    async update(user: SessionUser, id: string, input: PartyUpdate): Promise<Party> {
      const before = await getOr404(user, id);
      requireStaff(user);
      const { version, ...fields } = input;
      // A partial update completes the stored pair: the scheme and id still go together afterwards.
      const pair = peppolPairProblem({ ...before, ...fields });
      if (pair)
        throw problems.validation([
          { ...pair, code: 'peppol_endpoint', params: issueParams('peppol_endpoint') },
        ]);
      await inTransaction(db, async (trx) => {
        await versionedUpdate(trx, {
          table: 'parties',
          id,
          version,
          values: toColumns(fields),
          actorId: user.id,
          what: 'party',
        });
        const changes = diff(
          before as unknown as Record<string, unknown>,
          fields as Record<string, unknown>,
          FIELDS,
        );
        await writeAudit(trx, { kind: 'party', id, action: 'updated', actorId: user.id, changes });
      }).catch((e: unknown) => pgConstraintProblem(e, CODE_TAKEN));
      events.publish({ kind: 'party', id, action: 'updated', partyIds: [id] });
      return getOr404(user, id);
    },

    async remove(user: SessionUser, id: string): Promise<void> {
      await getOr404(user, id);
      requireAdmin(user);
      const inUse = () =>
        problems.conflict(
          'This party is used by users, dossiers, charges, transports, offers, invoices or declarations and cannot be deleted.',
        );
      if (await repo.isReferenced(id)) throw inUse();
      await inTransaction(db, async (trx) => {
        await partiesRepository(trx).remove(id);
        await writeAudit(trx, { kind: 'party', id, action: 'deleted', actorId: user.id, changes: [] });
      }).catch((e: unknown) => {
        // A record made meanwhile, or by an area the check above does not know yet: the foreign key says no.
        if ((e as { code?: string }).code === '23503') throw inUse();
        throw e;
      });
      events.publish({ kind: 'party', id, action: 'deleted' });
    },

    async history(user: SessionUser, id: string) {
      await getOr404(user, id);
      return historyOf(db, 'party', id, { scope: scopeOf(user), visibility: NO_INTERNAL_FIELDS });
    },
  };
}
export type PartiesService = ReturnType<typeof partiesService>;
