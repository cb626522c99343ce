import type { DeclarationListItem, DeclarationType } from '@fvg/contracts';
import { Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCircleCheck, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { numberColumn, statusColumn } from '../../../components/records/columns.tsx';
import type { RecordColumn } from '../../../components/records/data-table.tsx';
import { RelatedRecords } from '../../../components/records/related-records.tsx';
import { problemMessage } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { declarationListOptions, useCreateDeclaration } from '../api/declarations-api.ts';
import { declarationPath, lastMessageText, PendingRequestBadge } from './declaration-list-config.tsx';
import {
  DECLARATION_STATUS_COLORS,
  DECLARATION_STATUS_LABELS,
  DECLARATION_TYPE_LABELS,
  NEW_DECLARATION_LABELS,
} from './declaration-meta.ts';

export interface DossierDeclarationsProps {
  dossier: { id: string; number: string };
  staff: boolean;
}

const NEW_TYPES: readonly DeclarationType[] = ['import', 'export', 'transit'];

const COLUMNS: RecordColumn<DeclarationListItem>[] = [
  numberColumn({ id: 'lrn', header: 'LRN', text: (d) => d.lrn, href: declarationPath }),
  {
    id: 'mrn',
    header: 'MRN',
    cell: (d) => (
      <Text size="sm" ff="monospace">
        {d.mrn ?? '—'}
      </Text>
    ),
  },
  { id: 'type', header: 'Type', cell: (d) => DECLARATION_TYPE_LABELS[d.type] },
  statusColumn({
    size: 'sm',
    status: (d) => d.status,
    colors: DECLARATION_STATUS_COLORS,
    labels: DECLARATION_STATUS_LABELS,
    beside: (d) => <PendingRequestBadge request={d.pendingRequest} />,
  }),
  {
    id: 'lastMessage',
    header: 'Last message',
    cell: (d) => <Text size="sm">{lastMessageText(d.lastMessage)}</Text>,
  },
];

/**
 * The day the goods left the Union, from the authority's exit confirmation: the proof a zero-rated
 * export invoice needs. Null until an export has exited.
 */
export function exitConfirmedOn(d: Pick<DeclarationListItem, 'type' | 'status' | 'exitedAt'>) {
  return d.type === 'export' && d.status === 'exited' ? d.exitedAt : null;
}

/**
 * The dossier's Declarations tab: its declarations (LRN, MRN, type, status, last message), for staff
 * "New import / export / transit declaration" (a draft prefilled from the dossier, opened at once),
 * and for an export that has left the Union the line customers and accountants look for.
 */
export function DossierDeclarations({ dossier, staff }: DossierDeclarationsProps) {
  const navigate = useNavigate();
  const list = useQuery(declarationListOptions({ page: 1, pageSize: 100, dossierId: dossier.id }));
  const create = useCreateDeclaration();

  const start = (type: DeclarationType) =>
    create.mutate(
      { type, dossierId: dossier.id },
      {
        onSuccess: (declaration) => {
          notifications.show({
            color: 'green',
            message: `Draft ${DECLARATION_TYPE_LABELS[type].toLowerCase()} declaration ${declaration.lrn} made from dossier ${dossier.number}.`,
          });
          void navigate({ to: declarationPath(declaration) });
        },
        onError: (error) =>
          notifications.show({ color: 'red', title: 'No declaration made', message: problemMessage(error) }),
      },
    );

  const exits = (list.data?.items ?? [])
    .map((d) => ({ d, on: exitConfirmedOn(d) }))
    .filter((x): x is { d: DeclarationListItem; on: string } => x.on !== null);

  return (
    <Stack gap="sm" data-testid="dossier-declarations">
      {staff && (
        <Group gap="xs">
          {NEW_TYPES.map((type) => (
            <Button
              key={type}
              variant={type === 'import' ? 'filled' : 'light'}
              size="sm"
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={() => start(type)}
              loading={create.isPending && create.variables?.type === type}
              disabled={create.isPending && create.variables?.type !== type}
              data-testid={`new-${type}-declaration`}
            >
              {NEW_DECLARATION_LABELS[type]}
            </Button>
          ))}
        </Group>
      )}
      {exits.map(({ d, on }) => (
        <Group key={d.id} gap="xs" data-testid="export-exit-proof">
          <IconCircleCheck size={18} color="var(--mantine-color-teal-7)" aria-hidden />
          <Text size="sm">
            Exit confirmed on {formatDate(on)} — proof for zero-rated export VAT
            {exits.length > 1 ? ` (${d.mrn ?? d.lrn})` : ''}
          </Text>
        </Group>
      ))}
      <RelatedRecords
        query={list}
        plural="declarations"
        empty="No customs declarations for this dossier yet."
        testId="dossier-declarations"
        columns={COLUMNS}
        getRowId={(d) => d.id}
        getRowTestId={(d) => `dossier-declaration-${d.lrn}`}
      />
    </Stack>
  );
}
