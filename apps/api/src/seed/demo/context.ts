import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { Db } from '../../db/database.ts';
import type { FileStore } from '../../features/documents/storage.ts';
import { type AuditWrite, type Change, diff, writeAudits } from '../../records/audit.ts';

const DAY = 86_400_000;

/** What every area module of the demo company gets: the transaction, the clock, names and ids. */
export interface DemoContext {
  /** The seed's transaction: every area writes through it, so a crash leaves nothing behind. */
  db: Db;
  /** The current instant; the company's dates are laid out around `today` (its UTC midnight). */
  now: Date;
  today: Date;
  rand: Prng;
  users: { admin: string; staff: string; acme: string; globex: string };
  /** Party code → id (the demo parties and the company's own trading partners). */
  parties: Record<string, string>;
  store: FileStore;
  /** The documents' storage namespace (committed before the seed's transaction, see index.ts). */
  namespace: string;
  /** Filled by the dossiers module, read by the later ones. */
  dossiers: DemoDossier[];
  /** Acme's H2 declaration (entry into the customs warehouse), set by the declarations module. */
  warehouseEntry?: { id: string; lrn: string; mrn: string; dossierId: string };
  /** Audit entries not written yet: flushed in one statement after each area (see flushAudit). */
  audits: AuditWrite[];
}

export interface DemoDossier {
  id: string;
  number: string;
  status: string;
  type: string;
  mode: string;
  customer: 'ACME' | 'GLOBEX';
  customerId: string;
  origin: string;
  destination: string;
  etd: string;
  eta: string;
  createdAt: Date;
  customerReference: string;
  bookingNumber: string | null;
  masterBl: string | null;
  containers: { number: string; sizeType: string }[];
  cargo: string;
  /** The voyage, for sea dossiers: what the container events name. */
  vessel: { name: string; imo: string; voyage: string } | null;
}

/** mulberry32: a small seeded generator, so two fresh databases get the same company. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    /** A whole number in [min, max]. */
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    digits: (n: number) => Array.from({ length: n }, () => Math.floor(next() * 10)).join(''),
  };
}
export type Prng = ReturnType<typeof prng>;

/** UTC midnight of the day `now` falls on. */
export function midnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** The calendar day `offset` days from today, as the API stores dates (`2026-11-23`). */
export function dayOf(ctx: Pick<DemoContext, 'today'>, offset: number): string {
  return new Date(ctx.today.getTime() + offset * DAY).toISOString().slice(0, 10);
}

/** An instant `offset` days from today at hh:mm UTC. */
export function at(ctx: Pick<DemoContext, 'today'>, offset: number, hour: number, minute = 0): Date {
  return new Date(ctx.today.getTime() + offset * DAY + (hour * 60 + minute) * 60_000);
}

/** The instant of a calendar day (`2026-11-23`) at hh:mm UTC. */
export function onDay(day: string, hour: number, minute = 0): Date {
  return new Date(`${day}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00Z`);
}

/** Days from calendar day `a` to `b`. */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(b) - Date.parse(a)) / DAY);
}

/** A stable UUID (version 5 layout) from a name: the same demo event has the same eventID everywhere. */
export function uuidFrom(name: string): string {
  const h = createHash('sha1').update(`fvg-demo:${name}`).digest();
  h[6] = ((h[6] as number) & 0x0f) | 0x50;
  h[8] = ((h[8] as number) & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** Parses with the API's own schema: the demo data obeys every rule an API client's would. */
export function valid<S extends z.ZodType>(schema: S, input: z.input<S>, what: string): z.output<S> {
  const r = schema.safeParse(input);
  if (!r.success) throw new Error(`demo company: invalid ${what}: ${r.error.message}`);
  return r.data;
}

/** An audit entry as the app writes it, dated when the demo says it happened (never in the future). */
export function audit(
  ctx: Pick<DemoContext, 'audits' | 'now'>,
  entry: { kind: string; id: string; action: string; actorId: string | null; changes: Change[]; at: Date },
) {
  const when = entry.at.getTime() > ctx.now.getTime() ? ctx.now : entry.at;
  ctx.audits.push({ ...entry, at: when });
  return Promise.resolve();
}

/** A demo record's first history entry: staff created it with these `fields` (those of `names`). */
export function auditCreated(
  ctx: Pick<DemoContext, 'audits' | 'now' | 'users'>,
  record: { kind: string; id: string; at: Date },
  fields: object,
  names: readonly string[],
) {
  return audit(ctx, {
    ...record,
    action: 'created',
    actorId: ctx.users.staff,
    changes: diff({}, fields as Record<string, unknown>, names),
  });
}

/** Writes the collected audit entries, a thousand a statement. */
export async function flushAudit(ctx: Pick<DemoContext, 'db' | 'audits'>): Promise<void> {
  for (let i = 0; i < ctx.audits.length; i += 1000) await writeAudits(ctx.db, ctx.audits.slice(i, i + 1000));
  ctx.audits.length = 0;
}

/** The earlier of an instant and now: nothing in the demo's past is dated after the seed ran. */
export function notAfterNow(ctx: Pick<DemoContext, 'now'>, d: Date): Date {
  return d.getTime() > ctx.now.getTime() ? ctx.now : d;
}
