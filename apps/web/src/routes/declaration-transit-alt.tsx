import { useParams } from '@tanstack/react-router';
import { SadView } from '../features/declarations/sad/sad-view.tsx';

/** /declarations/transit/$id/alt: the transit declaration as the Single Administrative Document. */
export default function DeclarationTransitAltScreen() {
  const { id } = useParams({ strict: false }) as { id: string };
  return <SadView key={id} route="declaration-transit-alt" id={id} />;
}
