import { notifications } from '@mantine/notifications';
import { IconTruckDelivery } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import { ListScreen, type NewRecordDialog } from '../components/records/list-screen.tsx';
import { preloadRecordModal } from '../components/records/record-modal.tsx';
import { dossierListConfig, dossierPath } from '../features/dossiers/components/dossier-list-config.tsx';
import { anyPartyLookup, customerPartyLookup } from '../features/parties/api/parties-api.ts';
import { useHandlerLookup } from '../features/users/api/users-api.ts';
import { lazyNamed } from '../lib/lazy-component.ts';
import { useIsStaff, useMe } from '../lib/session.ts';

// The forms (react-hook-form, the fields, date pickers) load when the dialog opens, not with the list.
const loadForms = () => import('../features/dossiers/components/dossier-form.tsx');
const DossierForm = lazyNamed(loadForms, 'DossierForm');
const BookingForm = lazyNamed(loadForms, 'BookingForm');
/** Hover or focus on a button that opens the dialog: load it and its form before the click. */
const preloadDialog = () => {
  void preloadRecordModal();
  void loadForms();
};

/**
 * /dossiers. "New dossier" (staff) and "Book a transport" (customers) open their form in a dialog
 * over the list, addressed by `?new=1`: the list keeps its filters behind it, the back button and
 * Escape close it, and a link can open it directly.
 */
export default function DossiersScreen() {
  const me = useMe();
  const navigate = useNavigate();
  const handlerLookup = useHandlerLookup();
  const staff = useIsStaff();
  const customer = me.data?.role === 'customer';
  const config = useMemo(() => dossierListConfig({ staff, customerLookup: customerPartyLookup }), [staff]);
  const lookups = useMemo(
    () => ({ party: anyPartyLookup, customer: customerPartyLookup, handler: handlerLookup }),
    [handlerLookup],
  );
  const open = (number: string) => void navigate({ to: dossierPath({ number }) });
  const dialog = { dialogTestId: 'new-dossier-dialog', preload: preloadDialog };

  const newDossier: NewRecordDialog = {
    ...dialog,
    label: 'New dossier',
    testId: 'new-dossier',
    form: ({ close, keepsForm }) => (
      <DossierForm lookups={lookups} onSaved={(d) => open(d.number)} onCancel={close} keepsForm={keepsForm} />
    ),
  };
  const booking: NewRecordDialog = {
    ...dialog,
    label: 'Book a transport',
    testId: 'book-transport',
    icon: <IconTruckDelivery size={16} aria-hidden />,
    form: ({ close, keepsForm }) => (
      <BookingForm
        onSaved={(d) => {
          notifications.show({
            color: 'green',
            title: 'Booking request sent',
            message: `Your request ${d.number} is with our team; we confirm it shortly.`,
          });
          open(d.number);
        }}
        onCancel={close}
        keepsForm={keepsForm}
      />
    ),
  };

  return <ListScreen route="dossiers" config={config} create={staff ? newDossier : customer && booking} />;
}
