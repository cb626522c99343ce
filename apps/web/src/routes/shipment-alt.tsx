import { useParams } from '@tanstack/react-router';
import { RouteAccess } from '../components/route-access.tsx';
import { PickListView } from '../features/shipments/pick-list/pick-list-view.tsx';

/** /shipments-alt/$id: the shipment's pick and packing list, to print. */
export default function ShipmentAltScreen() {
  const { id } = useParams({ strict: false }) as { id: string };
  return (
    <RouteAccess route="shipment-alt">
      <PickListView key={id} id={id} />
    </RouteAccess>
  );
}
