import { z } from 'zod';
import { queryInt } from './primitives.ts';

/*
 * Global search (`GET /api/search`): one box over every area, results grouped by kind.
 * See docs/adr/0036-search-index.md.
 */

/** The kinds a search answers, in the order the groups are shown. */
export const SEARCH_KINDS = [
  'dossier',
  'container',
  'transport',
  'document',
  'party',
  'offer',
  'invoice',
  'declaration',
  'stock',
  'shipment',
] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];
export const searchKindSchema = z.enum(SEARCH_KINDS, {
  error: `Choose kinds among ${SEARCH_KINDS.join(', ')}`,
});

/** Warehouse kinds: only users with cw_access find them. */
export const WAREHOUSE_SEARCH_KINDS: readonly SearchKind[] = ['stock', 'shipment'];

/** Shorter queries are refused with a sentence (400 on `q`): two characters match half the index. */
export const SEARCH_MIN_LENGTH = 2;
export const SEARCH_MAX_LENGTH = 100;
/** Per kind: the palette asks for a few, `/search` for a page, "more" for the next. */
export const SEARCH_DEFAULT_LIMIT = 5;
export const SEARCH_MAX_LIMIT = 50;

/** How a result matched, best first: the ranking within a kind follows this order. */
export const SEARCH_MATCHES = ['exact', 'prefix', 'words', 'similar'] as const;
export type SearchMatch = (typeof SEARCH_MATCHES)[number];

export const searchQuerySchema = z.object({
  q: z
    .string('Type something to search for')
    .trim()
    .min(SEARCH_MIN_LENGTH, `Type at least ${SEARCH_MIN_LENGTH} characters`)
    .max(SEARCH_MAX_LENGTH, `Type at most ${SEARCH_MAX_LENGTH} characters`),
  /** Comma-separated kinds; all the user may see when absent. */
  kinds: z
    .string()
    .trim()
    .optional()
    .transform((s, ctx) => {
      if (!s) return undefined;
      const parts = [
        ...new Set(
          s
            .split(',')
            .map((p) => p.trim())
            .filter(Boolean),
        ),
      ];
      const bad = parts.filter((p) => !(SEARCH_KINDS as readonly string[]).includes(p));
      if (bad.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: `Unknown kind ${bad.join(', ')}: choose among ${SEARCH_KINDS.join(', ')}`,
        });
        return z.NEVER;
      }
      return parts as SearchKind[];
    }),
  /** Results per kind. */
  limit: queryInt({ min: 1, max: SEARCH_MAX_LIMIT }).default(SEARCH_DEFAULT_LIMIT),
  /** "More" of one kind: the opaque cursor its group answered (needs exactly one kind). */
  cursor: z.string().max(500).optional(),
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;

/** Where a result opens: a route name of the web's route table and its params. */
export const searchLinkSchema = z.object({
  route: z.string(),
  params: z.record(z.string(), z.string()),
  search: z.record(z.string(), z.string()).optional(),
});
export type SearchLink = z.infer<typeof searchLinkSchema>;

export const searchResultSchema = z.object({
  kind: searchKindSchema,
  id: z.string(),
  /** The record's human identifier or name: 'D-2026-000123', 'MSCU1234565', 'Acme Trading'. */
  title: z.string(),
  /** One line of context: customer, route, status in words. */
  subtitle: z.string(),
  match: z.enum(SEARCH_MATCHES),
  /** The identifier or words that matched, when it is not the title (a reference, an SSCC). */
  matched: z.string().nullable(),
  link: searchLinkSchema,
});
export type SearchResult = z.infer<typeof searchResultSchema>;

export const searchGroupSchema = z.object({
  kind: searchKindSchema,
  results: z.array(searchResultSchema),
  /** Set when there are more results of this kind: pass it back as `cursor` with `kinds=<kind>`. */
  nextCursor: z.string().nullable(),
});
export type SearchGroup = z.infer<typeof searchGroupSchema>;

export const searchResponseSchema = z.object({
  q: z.string(),
  /** Only kinds with results: the kind with the best match first (exact, prefix, words, similar), ties in SEARCH_KINDS order. */
  groups: z.array(searchGroupSchema),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;
