import { Anchor, Code, Group, Stack, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useEffect } from 'react';
import { RecordLoadState } from '../components/records/record-load-state.tsx';
import { useRouteSearch } from '../components/records/use-route-search.ts';
import { RouteAccess } from '../components/route-access.tsx';
import { anyPartyLookup, customerPartyLookup } from '../features/parties/api/parties-api.ts';
import type { ShipmentEditSearch } from '../features/shipments/api/search.ts';
import { shipmentOptions } from '../features/shipments/api/shipments-api.ts';
import { ShipmentEditor } from '../features/shipments/components/shipment-editor.tsx';
import { stockOptions } from '../features/stock/api/stock-api.ts';
import { pathFor } from '../lib/route-table.ts';
import { useMe } from '../lib/session.ts';

const NEW = 'new';

function Editor({ id }: { id: string }) {
  const me = useMe();
  const navigate = useNavigate();
  const isNew = id === NEW;
  const query = useQuery({ ...shipmentOptions(id), enabled: !isNew });
  const [search] = useRouteSearch<ShipmentEditSearch>();
  const stockId = isNew ? search.stock : undefined;
  const stock = useQuery({ ...stockOptions(stockId ?? ''), enabled: stockId !== undefined });
  const staff = me.data?.role === 'admin' || me.data?.role === 'staff';
  const shipment = query.data;
  const locked = shipment !== undefined && shipment.status !== 'draft';

  // Only drafts are edited: a released (or later) shipment opens its detail, saying why.
  useEffect(() => {
    if (!locked || !shipment) return;
    notifications.show({
      color: 'blue',
      message: `Shipment ${shipment.number} is no longer a draft, so it cannot be edited.`,
    });
    void navigate({ to: pathFor('shipment', { id: shipment.number }), replace: true });
  }, [locked, shipment, navigate]);

  const title = (
    <Group gap="sm" align="center">
      <Title order={1}>{isNew ? 'New shipment' : 'Edit shipment'}</Title>
      {shipment && (
        <Code fz="h3" data-testid="record-id">
          {shipment.number}
        </Code>
      )}
    </Group>
  );

  if (!isNew && !shipment)
    return (
      <Stack gap="lg" data-testid="screen-frame" data-route="shipment-edit">
        {title}
        <RecordLoadState
          title="This shipment could not be loaded"
          error={query.error ?? undefined}
          onRetry={() => void query.refetch()}
          notFound={{
            title: 'This shipment does not exist',
            back: { label: 'Back to shipments', href: pathFor('shipments') },
          }}
          skeleton={[[36, '60%'], 18, 18, [18, '80%']]}
        />
      </Stack>
    );
  if (locked || !me.data || (stockId && stock.isPending)) return null;

  return (
    <Stack gap="lg" data-testid="screen-frame" data-route="shipment-edit">
      <Stack gap={4}>
        {title}
        <Anchor
          component={Link}
          to={shipment ? pathFor('shipment', { id: shipment.number }) : pathFor('shipments')}
          size="sm"
        >
          {shipment ? `Back to shipment ${shipment.number}` : 'Back to shipments'}
        </Anchor>
      </Stack>
      <ShipmentEditor
        shipment={shipment}
        staff={staff}
        fromStock={
          stockId && stock.data
            ? { id: stock.data.id, sku: stock.data.sku, owner: stock.data.owner }
            : undefined
        }
        party={me.data.party}
        ownerLookup={customerPartyLookup}
        consigneeLookup={anyPartyLookup}
        onSaved={(saved) => {
          notifications.show({
            color: 'green',
            message: staff
              ? `Draft shipment ${saved.number} saved.`
              : `Shipment ${saved.number} saved as a draft: the warehouse releases it.`,
          });
          void navigate({ to: pathFor('shipment', { id: saved.number }) });
        }}
        onCancel={() =>
          void navigate({
            to: shipment ? pathFor('shipment', { id: shipment.number }) : pathFor('shipments'),
          })
        }
        {...(shipment ? { reload: async () => (await query.refetch()).data } : {})}
      />
    </Stack>
  );
}

/** /shipments/$id/edit: the draft editor; `/shipments/new/edit` is a new, unsaved draft. */
export default function ShipmentEditScreen() {
  const { id } = useParams({ strict: false }) as { id: string };
  return (
    <RouteAccess route="shipment-edit">
      <Editor key={id} id={id} />
    </RouteAccess>
  );
}
