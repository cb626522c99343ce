import { type DeclarationType, makeMrn } from '@fvg/contracts';
import { sql } from 'kysely';
import type { Db } from '../../../db/database.ts';

/** Position 17 of the MRNs the sandbox allocates: import only, export only, transit only. */
export const SANDBOX_MRN_LETTER: Readonly<Record<DeclarationType, string>> = {
  import: 'R',
  export: 'A',
  transit: 'J',
};

/**
 * The 12-character national part: `SBX` and the next value of `declaration_mrn_serial`, so a sandbox
 * MRN is recognisable at a glance and unique across nodes (migration 0021).
 */
export async function nextMrnSerial(trx: Db): Promise<string> {
  const { rows } = await sql<{ n: string }>`select nextval('declaration_mrn_serial')::text as n`.execute(trx);
  return `SBX${String(rows[0]?.n).padStart(9, '0')}`;
}

/**
 * A new MRN for a declaration lodged at `lodgedAt` with the office `officeOfLodgement` (its country
 * prefix is the MRN's country): year, country, serial, the type's letter, check character.
 */
export async function allocateMrn(
  trx: Db,
  input: { type: DeclarationType; officeOfLodgement: string; lodgedAt: Date },
): Promise<string> {
  return makeMrn({
    year: input.lodgedAt.getUTCFullYear() % 100,
    country: input.officeOfLodgement.slice(0, 2).toUpperCase(),
    serial: await nextMrnSerial(trx),
    letter: SANDBOX_MRN_LETTER[input.type],
  });
}
