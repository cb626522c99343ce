import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/database.ts';
import { sharedSecret } from '../db/settings.ts';
import { problems } from '../http/problem.ts';

/**
 * What a cursor was made for: the list, its sort and its filters (scope included). A cursor opens only
 * for the same binding, so one made by staff for `-profit`, for another list or other filters is refused.
 */
export interface CursorBinding {
  list: string;
  sort?: string;
  filter?: unknown;
}

export const INVALID_CURSOR_MESSAGE = 'This page link is no longer valid. Start from the first page.';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The key of every node: kept in the database like the JWT secret (the first node to need it creates
 * it), cached per database handle so a process serving two databases (tests) keeps them apart.
 */
const keys = new WeakMap<Db, Promise<Buffer>>();

function cursorKey(db: Db): Promise<Buffer> {
  let key = keys.get(db);
  if (!key) {
    key = sharedSecret(db, 'cursor_secret', () => randomBytes(32).toString('base64url')).then((value) =>
      createHash('sha256').update(value).digest(),
    );
    keys.set(db, key);
    key.catch(() => keys.delete(db));
  }
  return key;
}

function aad(binding: CursorBinding): Buffer {
  return createHash('sha256')
    .update(JSON.stringify([binding.list, binding.sort ?? null, binding.filter ?? null]))
    .digest();
}

/**
 * A keyset cursor: the last row's sort values, encrypted and authenticated (AES-256-GCM) with the
 * binding as associated data. Clients can neither read (a sort value may be a figure they must not
 * see) nor forge one, and the server never casts a value it did not produce itself.
 */
export async function sealCursor(db: Db, binding: CursorBinding, values: (string | null)[]): Promise<string> {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', await cursorKey(db), iv);
  cipher.setAAD(aad(binding));
  const body = Buffer.concat([cipher.update(JSON.stringify(values), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

/**
 * The values of a cursor from sealCursor() for the same binding; anything else (tampered, forged,
 * expired key, another list, sort or filter) is a 400 on `field`, never a 500.
 */
export async function openCursor(
  db: Db,
  binding: CursorBinding,
  cursor: string,
  length: number,
  field = 'cursor',
): Promise<(string | null)[]> {
  const invalid = () =>
    problems.validation([{ field, message: INVALID_CURSOR_MESSAGE }], INVALID_CURSOR_MESSAGE);
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  const raw = Buffer.from(cursor, 'base64url');
  if (raw.length <= IV_BYTES + TAG_BYTES) throw invalid();
  let values: unknown;
  try {
    const decipher = createDecipheriv('aes-256-gcm', await cursorKey(db), raw.subarray(0, IV_BYTES));
    decipher.setAAD(aad(binding));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    const text = Buffer.concat([
      decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
    values = JSON.parse(text);
  } catch {
    throw invalid();
  }
  if (
    !Array.isArray(values) ||
    values.length !== length ||
    !values.every((v) => v === null || typeof v === 'string')
  )
    throw invalid();
  return values as (string | null)[];
}
