import type { SalesOfferListItem } from '@fvg/contracts';
import { Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { ErrorState } from '../../../components/error-state.tsx';
import { DataTable } from '../../../components/records/data-table.tsx';
import { pathFor } from '../../../lib/route-table.ts';
import { offerListOptions } from '../api/sales-offers-api.ts';
import { offerColumns } from './offer-list-config.tsx';

const columns = offerColumns.filter((c) => c.id !== 'dossier' && c.id !== 'customer');

/** The offers a dossier came from (the dossier screen's Offers tab); a row opens the offer on /sales-offers. */
export function DossierOffers({ dossierId }: { dossierId: string }) {
  const navigate = useNavigate();
  const offers = useQuery(offerListOptions({ page: 1, pageSize: 50, dossierId }));
  if (offers.isError)
    return (
      <ErrorState
        title="The offers could not be loaded"
        error={offers.error}
        onRetry={() => void offers.refetch()}
      />
    );
  return (
    <DataTable<SalesOfferListItem>
      tableId="dossier-offers"
      label="Offers of this dossier"
      columns={columns}
      rows={offers.data?.items ?? []}
      getRowId={(o) => o.id}
      getRowTestId={(o) => `row-${o.number}`}
      loading={offers.isPending}
      onOpen={(o) => void navigate({ to: pathFor('sales-offers'), search: { open: o.id } as never })}
      empty={
        <Stack align="center" py="lg" data-testid="dossier-offers-empty">
          <Text c="dimmed">This dossier was not booked from an offer.</Text>
        </Stack>
      }
      maxHeight={360}
    />
  );
}
