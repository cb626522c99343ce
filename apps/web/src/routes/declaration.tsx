import { useParams } from '@tanstack/react-router';
import { DeclarationDetail } from '../features/declarations/components/declaration-detail.tsx';
import { useMe } from '../lib/session.ts';

/** /declarations/$id: a declaration by its id (the LRN can change while it is a draft). */
export default function DeclarationScreen() {
  const { id } = useParams({ strict: false }) as { id: string };
  const me = useMe();
  return <DeclarationDetail key={id} id={id} role={me.data?.role} />;
}
