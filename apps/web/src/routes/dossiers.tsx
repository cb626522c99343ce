import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconTruckDelivery } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import { ListPage } from '../components/records/list-page.tsx';
import { preloadRecordModal, RecordModal } from '../components/records/record-modal.tsx';
import { useRouteSearch } from '../components/records/use-route-search.ts';
import { ScreenFrame } from '../components/screen-frame.tsx';
import { dossierListConfig, dossierPath } from '../features/dossiers/components/dossier-list-config.tsx';
import type { DossiersSearch } from '../features/dossiers/search.ts';
import { anyPartyLookup, customerPartyLookup } from '../features/parties/api/parties-api.ts';
import { useHandlerLookup } from '../features/users/api/users-api.ts';
import { lazyNamed } from '../lib/lazy-component.ts';
import { pathFor } from '../lib/route-table.ts';
import { useMe } from '../lib/session.ts';

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
  const [search, setSearch] = useRouteSearch<DossiersSearch>();
  const handlerLookup = useHandlerLookup();
  const role = me.data?.role;
  const staff = role === 'admin' || role === 'staff';
  const customer = role === 'customer';
  const config = useMemo(() => dossierListConfig({ staff, customerLookup: customerPartyLookup }), [staff]);
  const lookups = useMemo(
    () => ({ party: anyPartyLookup, customer: customerPartyLookup, handler: handlerLookup }),
    [handlerLookup],
  );
  const close = () => setSearch({ new: undefined });
  const keepsForm = (next: { pathname: string; search: Record<string, unknown> }) =>
    next.pathname === pathFor('dossiers') && next.search.new === 1;
  const open = (number: string) => void navigate({ to: dossierPath({ number }) });

  return (
    <ScreenFrame route="dossiers">
      <ListPage
        config={config}
        actions={
          <>
            {staff && (
              <Button
                leftSection={<IconPlus size={16} aria-hidden />}
                onClick={() => setSearch({ new: 1 })}
                onPointerEnter={preloadDialog}
                onFocus={preloadDialog}
                data-testid="new-dossier"
              >
                New dossier
              </Button>
            )}
            {customer && (
              <Button
                leftSection={<IconTruckDelivery size={16} aria-hidden />}
                onClick={() => setSearch({ new: 1 })}
                onPointerEnter={preloadDialog}
                onFocus={preloadDialog}
                data-testid="book-transport"
              >
                Book a transport
              </Button>
            )}
          </>
        }
      />
      <RecordModal
        opened={(staff || customer) && search.new === 1}
        title={staff ? 'New dossier' : 'Book a transport'}
        onClose={close}
        testId="new-dossier-dialog"
      >
        {staff ? (
          <DossierForm
            lookups={lookups}
            onSaved={(d) => open(d.number)}
            onCancel={close}
            keepsForm={keepsForm}
          />
        ) : (
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
        )}
      </RecordModal>
    </ScreenFrame>
  );
}
