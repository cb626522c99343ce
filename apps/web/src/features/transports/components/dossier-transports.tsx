import type { Transport } from '@fvg/contracts';
import { Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useLocation, useNavigate } from '@tanstack/react-router';
import { ErrorState } from '../../../components/error-state.tsx';
import { DataTable } from '../../../components/records/data-table.tsx';
import { RecordModal } from '../../../components/records/record-modal.tsx';
import type { LookupSource } from '../../../components/records/record-select.tsx';
import { useRouteSearch } from '../../../components/records/use-route-search.ts';
import { pathFor } from '../../../lib/route-table.ts';
import { transportListOptions } from '../api/transports-api.ts';
import { type TransportDossier, TransportForm } from './transport-form.tsx';
import { transportColumns } from './transport-list-config.tsx';

const columns = transportColumns.filter((c) => c.id !== 'dossier');

export interface DossierTransportsProps {
  dossier: TransportDossier;
  /** Staff add legs here; customers read. */
  staff: boolean;
  carrierLookup: LookupSource;
}

/**
 * The legs of one dossier (the dossier screen's Transports tab); a row opens it on /transports. Staff
 * add a leg here (`?add=leg` on the tab, so the form's unsaved-changes guard can hold the dialog open):
 * the dossier is fixed and its containers are offered to tick. The list is live, so the new leg shows.
 */
export function DossierTransports({ dossier, staff, carrierLookup }: DossierTransportsProps) {
  const navigate = useNavigate();
  const location = useLocation();
  const [search, setSearch] = useRouteSearch<{ add?: string }>();
  const legs = useQuery(transportListOptions({ page: 1, pageSize: 200, dossierId: dossier.id }));
  const adding = staff && search.add === 'leg';
  const closeAdd = () => setSearch({ add: undefined });

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
    <Stack gap="sm">
      {staff && (
        <Group justify="flex-end">
          <Button
            size="xs"
            variant="light"
            leftSection={<IconPlus size={14} aria-hidden />}
            onClick={() => setSearch({ add: 'leg' })}
            data-testid="add-leg"
          >
            Add leg
          </Button>
        </Group>
      )}
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
      <RecordModal
        opened={adding}
        title={`New leg of ${dossier.number}`}
        onClose={closeAdd}
        testId="add-leg-dialog"
      >
        {adding && (
          <TransportForm
            dossier={dossier}
            carrierLookup={carrierLookup}
            onSaved={(t) => {
              notifications.show({
                color: 'green',
                message: `Leg ${t.dossier.number}-${t.sequence} added.`,
              });
              closeAdd();
            }}
            onCancel={closeAdd}
            keepsForm={(next) => next.pathname === location.pathname && next.search.add === 'leg'}
          />
        )}
      </RecordModal>
    </Stack>
  );
}
