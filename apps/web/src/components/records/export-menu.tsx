import { EXPORT_FORMATS } from '@fvg/contracts';
import { Button, Menu } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconChevronDown, IconDownload, IconFileSpreadsheet, IconFileTypeCsv } from '@tabler/icons-react';
import { useState } from 'react';
import { problemMessage } from '../../lib/api-client.ts';
import { downloadFile } from '../../lib/download.ts';
import type { QueryParams } from '../../lib/query-string.ts';

export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const LABELS: Record<ExportFormat, string> = { csv: 'CSV', xlsx: 'Excel (XLSX)' };

/** The export request of a list: the list's own filters and order, every page, in the format. */
export function exportParams(query: QueryParams, format: ExportFormat): QueryParams {
  const { page: _page, pageSize: _pageSize, cursor: _cursor, ...filters } = query;
  return { ...filters, format };
}

export interface ExportMenuProps {
  /** API path of the list, e.g. 'dossiers'. */
  path: string;
  /** The list's current API query (filters, search, sort). */
  query: QueryParams;
  /** File name base when the server names none. */
  basename: string;
}

/** Downloads the current filtered list (all pages) as CSV or XLSX. */
export function ExportMenu({ path, query, basename }: ExportMenuProps) {
  const [busy, setBusy] = useState<ExportFormat | null>(null);

  const run = async (format: ExportFormat) => {
    setBusy(format);
    try {
      await downloadFile(path, exportParams(query, format), `${basename}.${format}`);
    } catch (error) {
      notifications.show({ color: 'red', title: 'Export failed', message: problemMessage(error) });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden />}
          rightSection={<IconChevronDown size={14} aria-hidden />}
          loading={busy !== null}
          data-testid="export-menu"
        >
          Export
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Export this list</Menu.Label>
        {EXPORT_FORMATS.map((format) => (
          <Menu.Item
            key={format}
            leftSection={
              format === 'csv' ? (
                <IconFileTypeCsv size={16} aria-hidden />
              ) : (
                <IconFileSpreadsheet size={16} aria-hidden />
              )
            }
            onClick={() => void run(format)}
            data-testid={`export-${format}`}
          >
            {LABELS[format]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
