import type { EXPORT_FORMATS } from '@fvg/contracts';
import { Button } from '@mantine/core';
import { IconChevronDown, IconDownload } from '@tabler/icons-react';
import { Suspense, useState } from 'react';
import { displayPreferences } from '../../lib/display-preferences.ts';
import { downloadFile } from '../../lib/download.ts';
import { useT } from '../../lib/i18n.ts';
import { lazyNamed, useLoadOnIntent } from '../../lib/lazy-component.ts';
import type { QueryParams } from '../../lib/query-string.ts';
import { showProblemToast } from '../problem-reference.tsx';

export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * The export request of a list: the list's own filters and order, every page, in the format, with the
 * user's zone and date and time formats, so the file writes dates and times as the screen shows them
 * (issue 27 item 7; a list that reads days in a zone already sends the same `tz`).
 */
export function exportParams(query: QueryParams, format: ExportFormat): QueryParams {
  const { page: _page, pageSize: _pageSize, cursor: _cursor, ...filters } = query;
  const { timeZone, dateFormat, timeFormat } = displayPreferences();
  return { ...filters, format, tz: timeZone, dateFormat, timeFormat };
}

export interface ExportMenuProps {
  /** API path of the list, e.g. 'dossiers'. */
  path: string;
  /** The list's current API query (filters, search, sort). */
  query: QueryParams;
  /** File name base when the server names none. */
  basename: string;
}

const ExportFormatMenu = lazyNamed(() => import('./export-format-menu.tsx'), 'ExportFormatMenu');

/**
 * Downloads the current filtered list (all pages) as CSV or XLSX. The button is here; its menu
 * (Mantine's Menu) loads when a user reaches for it (ADR 0023).
 */
export function ExportMenu({ path, query, basename }: ExportMenuProps) {
  const t = useT('records');
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const menu = useLoadOnIntent(ExportFormatMenu);

  const run = async (format: ExportFormat) => {
    setBusy(format);
    try {
      await downloadFile(path, exportParams(query, format), `${basename}.${format}`);
    } catch (error) {
      showProblemToast(t('export.failed'), error);
    } finally {
      setBusy(null);
    }
  };

  const target = (
    <Button
      variant="default"
      leftSection={<IconDownload size={16} aria-hidden />}
      rightSection={<IconChevronDown size={14} aria-hidden />}
      loading={busy !== null}
      aria-haspopup="menu"
      data-testid="export-menu"
      {...menu.intent}
      onClick={menu.active ? undefined : menu.want}
    >
      {t('export.button')}
    </Button>
  );
  if (!menu.active) return target;
  return (
    <Suspense fallback={target}>
      <ExportFormatMenu target={target} defaultOpened={menu.wanted} onExport={(format) => void run(format)} />
    </Suspense>
  );
}
