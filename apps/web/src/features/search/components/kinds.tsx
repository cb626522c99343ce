import type { SearchKind, SearchResult } from '@fvg/contracts';
import {
  IconAddressBook,
  IconBuildingWarehouse,
  IconContainer,
  IconFileInvoice,
  IconFileText,
  IconFolders,
  IconPackageExport,
  IconReceipt,
  IconStack2,
  IconTruck,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { t } from '../../../lib/i18n.ts';

/** The heading of a kind's group. Spelled out key by key so the catalogue check sees every one. */
export function kindLabel(kind: SearchKind): string {
  switch (kind) {
    case 'dossier':
      return t('search:kinds.dossier');
    case 'container':
      return t('search:kinds.container');
    case 'transport':
      return t('search:kinds.transport');
    case 'document':
      return t('search:kinds.document');
    case 'party':
      return t('search:kinds.party');
    case 'offer':
      return t('search:kinds.offer');
    case 'invoice':
      return t('search:kinds.invoice');
    case 'declaration':
      return t('search:kinds.declaration');
    case 'stock':
      return t('search:kinds.stock');
    case 'shipment':
      return t('search:kinds.shipment');
  }
}

/** The same icons as the navigation entries of the areas. */
export function KindIcon({ kind, size = 18 }: { kind: SearchKind; size?: number }): ReactNode {
  const props = { size, stroke: 1.5, 'aria-hidden': true } as const;
  switch (kind) {
    case 'dossier':
      return <IconFolders {...props} />;
    case 'container':
      return <IconContainer {...props} />;
    case 'transport':
      return <IconTruck {...props} />;
    case 'document':
      return <IconFileText {...props} />;
    case 'party':
      return <IconAddressBook {...props} />;
    case 'offer':
      return <IconReceipt {...props} />;
    case 'invoice':
      return <IconFileInvoice {...props} />;
    case 'declaration':
      return <IconStack2 {...props} />;
    case 'stock':
      return <IconBuildingWarehouse {...props} />;
    case 'shipment':
      return <IconPackageExport {...props} />;
  }
}

/** The line under a result's title: its subtitle, and what matched when the title does not show it. */
export function resultDescription(result: SearchResult): string {
  const matched =
    result.matched && !result.title.toLowerCase().includes(result.matched.toLowerCase())
      ? t('search:matched', { matched: result.matched })
      : '';
  return [result.subtitle, matched].filter(Boolean).join(' · ');
}
