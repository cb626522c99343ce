import type { Transport } from '@fvg/contracts';
import { Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { pathFor } from '../../../app/route-table.ts';
import { ErrorState } from '../../../components/error-state.tsx';
import { DataTable } from '../../../components/records/data-table.tsx';
import { transportListOptions } from '../api/transports-api.ts';
import { transportColumns } from './transport-list-config.tsx';

const columns = transportColumns.filter((c) => c.id !== 'dossier');

/** The legs of one dossier (the dossier screen's Transports tab); a row opens it on /transports. */
export function DossierTransports({ dossierId }: { dossierId: string }) {
  const navigate = useNavigate();
  const legs = useQuery(transportListOptions({ page: 1, pageSize: 200, dossierId }));
  if (legs.isError)
    return (
      <ErrorState
        title="The transports could not be loaded"
        error={legs.error}
        onRetry={() => void legs.refetch()}
      />
    );
  const rows = [...(legs.data?.items ?? [])].sort((a, b) => a.sequence - b.sequence);
  return (
    <DataTable<Transport>
      tableId="dossier-transports"
      label="Transports of this dossier"
      columns={columns}
      rows={rows}
      getRowId={(t) => t.id}
      getRowTestId={(t) => `row-transport-${t.dossier.number}-${t.sequence}`}
      loading={legs.isPending}
      onOpen={(t) => void navigate({ to: pathFor('transports'), search: { open: t.id } as never })}
      empty={
        <Stack align="center" py="lg" data-testid="dossier-transports-empty">
          <Text c="dimmed">No transport legs yet.</Text>
        </Stack>
      }
      maxHeight={480}
    />
  );
}
