import { z } from 'zod';
import { queryInt } from './primitives.ts';

/** Paging and sorting shared by every list endpoint: `?page=&pageSize=&sort=field,-other&q=&cursor=`. */
export const MAX_PAGE_SIZE = 200;

export const listQueryBaseSchema = z.object({
  page: queryInt({ min: 1, max: 100_000 }).default(1),
  pageSize: queryInt({ min: 1, max: MAX_PAGE_SIZE }).default(50),
  /** Comma-separated fields, `-` for descending: `-createdAt,number`. */
  sort: z.string().max(200).optional(),
  q: z.string().trim().max(200).optional(),
  /** Opaque keyset cursor from a previous page's `nextCursor`; when given, `page` is ignored. */
  cursor: z.string().max(2000).optional(),
});

export interface ListResponse<T> {
  items: T[];
  /** Exact up to a threshold; beyond it an estimate (then `totalIsEstimate` is true). */
  total: number;
  totalIsEstimate: boolean;
  page: number;
  pageSize: number;
  /** Cursor of the next page for keyset paging, or null at the end. */
  nextCursor: string | null;
}

export function listResponseSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    totalIsEstimate: z.boolean(),
    page: z.number().int(),
    pageSize: z.number().int(),
    nextCursor: z.string().nullable(),
  });
}

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export const exportFormatSchema = z.enum(EXPORT_FORMATS);

/**
 * Which fields of a record area only staff may see: one declaration per area, next to its record
 * schema. The API applies it everywhere a field can show: the record and its list items (the field is
 * null, or an empty list), the audit history (its changes, and `internalActions` entries, are left
 * out), exports (its columns are left out), sort and filters (a 400 on `sort` or on the filter), the
 * `q` search (never matches it) and cursors (sealed, so they carry nothing readable).
 */
export interface FieldVisibility {
  /** API field names customers never see (costs, margins, internal flags). */
  readonly internal: readonly string[];
  /** Audit actions that are internal as a whole: a customer's history leaves them out even when empty. */
  readonly internalActions?: readonly string[];
  /**
   * The field naming the party the record belongs to, when staff can give the record to another party
   * (dossiers: `customerId`). A customer's history never shows its changes (their values are other
   * parties' ids) and starts where the record became their party's: what was done while it was
   * another party's is that party's history, not theirs.
   */
  readonly partyField?: string;
}

/** For areas whose every field the record's customer may see (declared, so it is a decision, not a gap). */
export const NO_INTERNAL_FIELDS: FieldVisibility = { internal: [] };

/**
 * Who changed what on a record, one entry per mutation. A reference field's value (`carrierId`,
 * `handlerId`…) comes as the record it names, `{ id, code, name }` for a party and `{ id, name }` for
 * a user, when the API could name it (apps/api/src/records/audit.ts), else as the id.
 */
export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  action: z.string(),
  actor: z.object({ id: z.string(), name: z.string() }).nullable(),
  changes: z.array(z.object({ field: z.string(), from: z.unknown(), to: z.unknown() })),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const uuidSchema = z.uuid({ message: 'Must be a valid id' });

/**
 * An IANA time zone (`Europe/Amsterdam`): the zone whose calendar days a date filter means, sent by
 * the browser; UTC when left out.
 */
export const timeZoneSchema = z
  .string()
  .max(64)
  .refine(isTimeZone, 'Must be an IANA time zone, e.g. Europe/Amsterdam');

/** True when the runtime knows the IANA zone name (and it is a name: see below). */
export function isTimeZone(tz: string): boolean {
  if (!tz) return false;
  // ES2024 offset zones ('+01:00') pass Intl on Node 24, but PostgreSQL reads them as POSIX zones with
  // the sign the other way round (UTC−1): only zone names mean the same on both sides.
  if (/^[+-]/.test(tz)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** A query parameter of comma-separated values (`status=issued,paid`), each checked by `item`; up to 20. */
export const csvOf = <T extends z.ZodType<unknown, string>>(item: T) =>
  z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item).max(20));
