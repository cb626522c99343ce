import { useParams } from '@tanstack/react-router';
import { PickListView } from '../features/shipments/pick-list/pick-list-view.tsx';

/** /shipments-alt/$id: the shipment's pick and packing list, to print. */
export default function ShipmentAltScreen() {
  const { id } = useParams({ strict: false }) as { id: string };
  return <PickListView key={id} id={id} />;
}
