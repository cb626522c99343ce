/**
 * How a declaration's items fall onto A4 sheets of the Single Administrative Document.
 *
 * The paper SAD prints the header and item 1 on form 1 and three items on each continuation form
 * ("BIS"). We keep its three-items-per-sheet rhythm but let the first sheet carry three items too (the
 * header boxes leave room on A4 at our type size): sheet 1 = every header box + items 1–3, each further
 * sheet = a header summary (boxes 1, 3, 7 and the MRN) + the next three items. Box 3 counts the
 * sheets ("2 / 3"). A declaration without items still prints its one sheet.
 */
export const ITEMS_PER_SHEET = 3;

export interface SadSheet<T> {
  /** 1-based, as box 3 shows it. */
  number: number;
  /** The first sheet carries every header box; the others only the summary. */
  first: boolean;
  items: readonly T[];
}

export function sadSheets<T>(items: readonly T[]): SadSheet<T>[] {
  const count = Math.max(1, Math.ceil(items.length / ITEMS_PER_SHEET));
  return Array.from({ length: count }, (_, i) => ({
    number: i + 1,
    first: i === 0,
    items: items.slice(i * ITEMS_PER_SHEET, (i + 1) * ITEMS_PER_SHEET),
  }));
}
