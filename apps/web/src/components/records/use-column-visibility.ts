import { useLocalStorage } from '@mantine/hooks';
import { useCallback, useMemo } from 'react';

/** Where a list remembers which columns its user shows: one entry per list, per browser. */
export const columnStorageKey = (tableId: string) => `fvg.columns.${tableId}`;

export interface ColumnVisibilityColumn {
  id: string;
  hiddenByDefault?: boolean | undefined;
  required?: boolean | undefined;
}

/** Column id → shown. */
export type ColumnVisibility = Record<string, boolean>;

/** The defaults of the columns: shown unless hiddenByDefault. */
export function defaultVisibility(columns: readonly ColumnVisibilityColumn[]): ColumnVisibility {
  return Object.fromEntries(columns.map((c) => [c.id, !c.hiddenByDefault]));
}

/**
 * Only the user's choices are stored (columns they switched away from the default), so a column
 * added to a list later appears with its default, and a removed one is simply ignored.
 */
export function useColumnVisibility(tableId: string, columns: readonly ColumnVisibilityColumn[]) {
  const [stored, setStored] = useLocalStorage<ColumnVisibility>({
    key: columnStorageKey(tableId),
    defaultValue: {},
    getInitialValueInEffect: false,
  });

  const visibility = useMemo(() => {
    const result = defaultVisibility(columns);
    for (const column of columns) {
      const choice = stored?.[column.id];
      if (typeof choice === 'boolean' && !column.required) result[column.id] = choice;
    }
    return result;
  }, [columns, stored]);

  const setVisible = useCallback(
    (id: string, visible: boolean) => {
      const column = columns.find((c) => c.id === id);
      if (!column || column.required) return;
      setStored((previous) => {
        const next = { ...(previous ?? {}) };
        if (visible === !column.hiddenByDefault) delete next[id];
        else next[id] = visible;
        return next;
      });
    },
    [columns, setStored],
  );

  const reset = useCallback(() => setStored({}), [setStored]);

  return { visibility, setVisible, reset };
}
