import { TITLE_TAG } from '@fvg/contracts';

/**
 * Separator between the parts of the tab title: "Dossier · D-2026-000123 · FVG".
 * A middle dot rather than a dash because record numbers themselves contain dashes.
 */
export const TITLE_SEPARATOR = ' · ';

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
): string {
  const title = screenTitle?.trim();
  if (!title) return TITLE_TAG;
  const recordId = paramValue(params.id) ?? paramValue(params.dossierId);
  return [title, recordId, TITLE_TAG].filter((part) => part !== undefined).join(TITLE_SEPARATOR);
}
