import { z } from 'zod';

/*
 * The URL state of record lists and detail screens, validated with zod by the router
 * (app/router.tsx `validateSearch`). Every parameter is optional and absent by default, so a list
 * URL carries only what differs from the defaults; anything malformed is dropped rather than
 * failing the screen (a hand-edited or stale link still opens).
 *
 * TanStack Router parses search values as JSON where it can (`?q=123` → 123, `?q=true` → true), so
 * the text schemas accept numbers and booleans and turn them back into strings.
 */

export const PAGE_SIZES = [25, 50, 100, 200] as const;
export const DEFAULT_PAGE_SIZE = 50;

const asText = (value: unknown) =>
  typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;

/** Free text, trimmed; empty → absent. */
export const searchText = (max = 200) =>
  z.preprocess(
    asText,
    z
      .string()
      .trim()
      .max(max)
      .transform((s) => (s === '' ? undefined : s))
      .optional(),
  );

const optional = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

export const searchPage = optional(z.coerce.number().int().min(2).max(100_000));
export const searchPageSize = optional(
  z.coerce
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n)),
);

/** A flag such as `?new=1` (1, '1', true); anything else → absent. */
export const searchFlag = z.preprocess(
  (v) => (v === 1 || v === '1' || v === true || v === 'true' ? 1 : undefined),
  z.literal(1).optional(),
);

/** One of the values, or absent. */
export const searchEnum = <const T extends readonly [string, ...string[]]>(values: T) =>
  optional(z.preprocess(asText, z.enum(values)));

/** A comma-separated set of the values (`status=booked,in_transit`), unknown ones dropped; none → absent. */
export const searchEnumList = (values: readonly string[]) =>
  z.preprocess((v) => {
    const text = asText(v);
    const list = Array.isArray(text) ? text.map(String) : typeof text === 'string' ? text.split(',') : [];
    const kept = [...new Set(list.map((s) => s.trim()).filter((s) => values.includes(s)))];
    return kept.length ? kept.join(',') : undefined;
  }, z.string().optional());

export const searchDate = optional(
  z.preprocess(
    asText,
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`))),
  ),
);

export const searchUuid = optional(z.preprocess(asText, z.uuid()));

/** `sort=a,-b` restricted to the sortable fields (at most 4 terms, as the API takes). */
export const searchSort = (fields: readonly string[]) =>
  z.preprocess((v) => {
    const text = asText(v);
    if (typeof text !== 'string') return undefined;
    const terms = parseSortParam(text).filter((t) => fields.includes(t.id));
    return formatSortParam(terms.slice(0, 4));
  }, z.string().optional());

/**
 * The building blocks of a screen's URL schema under one name, so a feature's schema imports one
 * thing: `type: searchParam.enumList(DOCUMENT_TYPES)`, `open: searchParam.text(64)`.
 */
export const searchParam = {
  text: searchText,
  flag: searchFlag,
  enum: searchEnum,
  enumList: searchEnumList,
  date: searchDate,
  uuid: searchUuid,
  page: searchPage,
  pageSize: searchPageSize,
};

/** The parameters of a record's own screen or dialog: its tab (`tab=history`) and edit form (`edit=1`). */
export const detailSearchShape = { tab: searchText(30), edit: searchFlag };

/** The parameters every list has. */
export function listSearchShape(sortFields: readonly string[]) {
  return {
    page: searchPage,
    pageSize: searchPageSize,
    sort: searchSort(sortFields),
    q: searchText(),
  };
}

export interface ListSearch {
  page?: number | undefined;
  pageSize?: number | undefined;
  sort?: string | undefined;
  q?: string | undefined;
  [filter: string]: string | number | undefined;
}

/** A search validator for TanStack Router: never throws, drops what it does not know. */
export function searchValidator<T>(schema: z.ZodType<T>) {
  return (search: Record<string, unknown>): T => {
    const parsed = schema.safeParse(search);
    return parsed.success ? parsed.data : schema.parse({});
  };
}

export interface SortTerm {
  id: string;
  desc: boolean;
}

/** 'number,-etd' → [{ id: 'number', desc: false }, { id: 'etd', desc: true }]; duplicates keep the first. */
export function parseSortParam(sort: string | undefined): SortTerm[] {
  if (!sort) return [];
  const terms: SortTerm[] = [];
  for (const part of sort.split(',')) {
    const trimmed = part.trim();
    const desc = trimmed.startsWith('-');
    const id = desc ? trimmed.slice(1) : trimmed;
    if (!/^[A-Za-z][\w.]*$/.test(id) || terms.some((t) => t.id === id)) continue;
    terms.push({ id, desc });
  }
  return terms;
}

/** The inverse of parseSortParam; no terms → undefined (the list's default order). */
export function formatSortParam(terms: readonly SortTerm[]): string | undefined {
  if (terms.length === 0) return undefined;
  return terms.map((t) => `${t.desc ? '-' : ''}${t.id}`).join(',');
}
