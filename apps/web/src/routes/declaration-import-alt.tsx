import { useParams } from '@tanstack/react-router';
import { SadView } from '../features/declarations/sad/sad-view.tsx';

/** /declarations/import/$id/alt: the import declaration as the Single Administrative Document. */
export default function DeclarationImportAltScreen() {
  const { id } = useParams({ strict: false }) as { id: string };
  return <SadView key={id} route="declaration-import-alt" id={id} />;
}
