import { useParams } from '@tanstack/react-router';
import { SadView } from '../features/declarations/sad/sad-view.tsx';

/** /declarations/export/$id/alt: the export declaration as the Single Administrative Document. */
export default function DeclarationExportAltScreen() {
  const { id } = useParams({ strict: false }) as { id: string };
  return <SadView key={id} route="declaration-export-alt" id={id} />;
}
