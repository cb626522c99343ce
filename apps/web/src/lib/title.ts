import { TITLE_TAG } from '@fvg/contracts';

/**
 * Separator between the parts of the tab title: "Dossier · D-2026-000123 · FVG".
 * A middle dot rather than a dash because record numbers themselves contain dashes.
 */
export const TITLE_SEPARATOR = ' · ';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function paramValue(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim() !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/**
 * The tab title (specification §1 and §2): the screen title, then the route's `id` parameter
 * (or `dossierId` when there is no `id`) when present, then the tag FVG. A screen without a title
 * gets the tag alone.
 */
export function pageTitle(
  screenTitle: string | undefined,
  params: Readonly<Record<string, unknown>> = {},
  /** The route's records are numbered when issued: an id names a draft, titled "draft", never the id. */
  options: { draftsById?: boolean | undefined } = {},
): string {
  const title = screenTitle?.trim();
  if (!title) return TITLE_TAG;
  const given = paramValue(params.id) ?? paramValue(params.dossierId);
  const recordId = options.draftsById && given && UUID.test(given) ? 'draft' : given;
  return [title, recordId, TITLE_TAG].filter((part) => part !== undefined).join(TITLE_SEPARATOR);
}
