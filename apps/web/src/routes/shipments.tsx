import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import { ListScreen } from '../components/records/list-screen.tsx';
import { customerPartyLookup } from '../features/parties/api/parties-api.ts';
import { shipmentListConfig } from '../features/shipments/components/shipment-list-config.tsx';
import { pathFor } from '../lib/route-table.ts';
import { useIsStaff, useMe } from '../lib/session.ts';

/**
 * /shipments: outbound orders drawn from the warehouse stock. Staff see every owner's; a customer
 * with warehouse access sees its own and orders new ones ("New shipment" opens an unsaved draft).
 */
export default function ShipmentsScreen() {
  const me = useMe();
  const staff = useIsStaff();
  const config = useMemo(() => shipmentListConfig({ staff, ownerLookup: customerPartyLookup }), [staff]);
  return (
    <ListScreen
      route="shipments"
      config={config}
      actions={
        me.data && (
          <Button
            component={Link}
            to={pathFor('shipment-edit', { id: 'new' })}
            leftSection={<IconPlus size={16} aria-hidden />}
            data-testid="new-shipment"
          >
            New shipment
          </Button>
        )
      }
    />
  );
}
