import { useParams } from '@tanstack/react-router';
import { RouteAccess } from '../components/route-access.tsx';
import { ShipmentDetail } from '../features/shipments/components/shipment-detail.tsx';
import { useMe } from '../lib/session.ts';

/** /shipments/$id: one shipment, live through the hub; a customer sees its own, read-only but for its drafts. */
export default function ShipmentScreen() {
  const { id } = useParams({ strict: false }) as { id: string };
  const me = useMe();
  const staff = me.data?.role === 'admin' || me.data?.role === 'staff';
  return (
    <RouteAccess route="shipment">
      <ShipmentDetail key={id} id={id} staff={staff} />
    </RouteAccess>
  );
}
