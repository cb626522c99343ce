import type { Dossier } from '@fvg/contracts';
import { useParams } from '@tanstack/react-router';
import { useMemo } from 'react';
import { ChatPanel, ChatUnreadBadge } from '../features/chat/components/chat-panel.tsx';
import { DossierPresence, DossierRoom } from '../features/chat/components/dossier-room.tsx';
import { DossierEvents } from '../features/container-events/components/dossier-events.tsx';
import { DossierDeclarations } from '../features/declarations/components/dossier-declarations.tsx';
import { DocumentsTab } from '../features/documents/components/dossier-documents.tsx';
import { DossierDetail, type DossierExtraTab } from '../features/dossiers/components/dossier-detail.tsx';
import { anyPartyLookup, customerPartyLookup, partyLookup } from '../features/parties/api/parties-api.ts';
import { DossierInvoices } from '../features/sales-invoices/components/dossier-invoices.tsx';
import { DossierOffers } from '../features/sales-offers/components/dossier-offers.tsx';
import { DossierTransports } from '../features/transports/components/dossier-transports.tsx';
import { useHandlerLookup } from '../features/users/api/users-api.ts';
import { useMe } from '../lib/session.ts';

/** Carriers are parties with the carrier role. */
const carrierLookup = partyLookup('carrier');

const containersOf = (dossier: Dossier) => dossier.containers.map((c) => c.number);

/**
 * The dossier's legs (features/transports), documents, container events, offers (features/sales-offers),
 * invoices, customs declarations (features/declarations) and chat (features/chat) as tabs of the dossier screen: the screen composes the areas, so the
 * dossiers feature imports none.
 * Staff add legs and events from their tabs.
 */
const extraTabs = (staff: boolean): DossierExtraTab[] => [
  {
    value: 'transports',
    label: 'Transports',
    content: (dossier) => (
      <DossierTransports
        dossier={{ id: dossier.id, number: dossier.number, containers: containersOf(dossier) }}
        staff={staff}
        carrierLookup={carrierLookup}
      />
    ),
  },
  {
    value: 'documents',
    label: 'Documents',
    content: (dossier) => <DocumentsTab recordType="dossier" recordId={dossier.id} />,
  },
  {
    value: 'events',
    label: 'Container events',
    content: (dossier) => (
      <DossierEvents dossierId={dossier.id} containers={containersOf(dossier)} staff={staff} />
    ),
  },
  {
    value: 'offers',
    label: 'Offers',
    content: (dossier) => <DossierOffers dossierId={dossier.id} />,
  },
  {
    value: 'invoices',
    label: 'Invoices',
    content: (dossier) => (
      <DossierInvoices
        dossier={{ id: dossier.id, number: dossier.number }}
        revenueCurrencies={[
          ...new Set(dossier.charges.filter((c) => c.kind === 'revenue').map((c) => c.currency)),
        ]}
        staff={staff}
      />
    ),
  },
  {
    value: 'declarations',
    label: 'Declarations',
    content: (dossier) => (
      <DossierDeclarations dossier={{ id: dossier.id, number: dossier.number }} staff={staff} />
    ),
  },
  {
    value: 'chat',
    label: 'Chat',
    content: (dossier) => <ChatPanel dossierId={dossier.id} />,
    badge: (dossier) => <ChatUnreadBadge dossierId={dossier.id} />,
  },
];

/** /dossiers/$dossierId: the parameter is the dossier number in links (the API takes number or id). */
export default function DossierScreen() {
  const { dossierId } = useParams({ strict: false }) as { dossierId: string };
  const me = useMe();
  const staff = me.data?.role === 'admin' || me.data?.role === 'staff';
  const tabs = useMemo(() => extraTabs(staff), [staff]);
  const handlerLookup = useHandlerLookup();
  const lookups = useMemo(
    () => ({ party: anyPartyLookup, customer: customerPartyLookup, handler: handlerLookup }),
    [handlerLookup],
  );
  // The screen is in the dossier's hub room while it is open: presence in the header, chat in its tab.
  return (
    <DossierRoom dossierKey={dossierId}>
      <DossierDetail
        dossierKey={dossierId}
        role={me.data?.role}
        me={me.data}
        lookups={lookups}
        extraTabs={tabs}
        headerExtra={<DossierPresence />}
      />
    </DossierRoom>
  );
}
