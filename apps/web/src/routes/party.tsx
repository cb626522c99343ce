import { useParams } from '@tanstack/react-router';
import { PartyDetail } from '../features/parties/components/party-detail.tsx';
import { useMe } from '../lib/session.ts';

export default function PartyScreen() {
  const { id } = useParams({ strict: false }) as { id: string };
  const me = useMe();
  return <PartyDetail id={id} role={me.data?.role} />;
}
