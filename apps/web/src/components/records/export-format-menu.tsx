import { EXPORT_FORMATS } from '@fvg/contracts';
import { Menu } from '@mantine/core';
import { IconFileSpreadsheet, IconFileTypeCsv } from '@tabler/icons-react';
import type { ReactElement } from 'react';
import { useT } from '../../lib/i18n.ts';
import type { ExportFormat } from './export-menu.tsx';

/** The formats of a list's export (export-menu.tsx renders `target`, the same button, until it loads). */
export function ExportFormatMenu({
  target,
  defaultOpened,
  onExport,
}: {
  target: ReactElement;
  defaultOpened: boolean;
  onExport: (format: ExportFormat) => void;
}) {
  const t = useT('records');
  return (
    <Menu position="bottom-end" withinPortal defaultOpened={defaultOpened}>
      <Menu.Target>{target}</Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('export.title')}</Menu.Label>
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
            onClick={() => onExport(format)}
            data-testid={`export-${format}`}
          >
            {t(`export.format.${format}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
