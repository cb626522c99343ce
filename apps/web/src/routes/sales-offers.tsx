import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { ListPage } from '../components/records/list-page.tsx';
import { preloadRecordModal, RecordModal } from '../components/records/record-modal.tsx';
import { useRouteSearch } from '../components/records/use-route-search.ts';
import { ScreenFrame } from '../components/screen-frame.tsx';
import { companyOptions } from '../features/company/api/company-api.ts';
import { customerPartyLookup, partyOptions } from '../features/parties/api/parties-api.ts';
import type { OfferCustomerSource } from '../features/sales-offers/components/offer-form.tsx';
import { offerListConfig } from '../features/sales-offers/components/offer-list-config.tsx';
import type { SalesOffersSearch } from '../features/sales-offers/search.ts';
import { lazyNamed } from '../lib/lazy-component.ts';
import { pathFor } from '../lib/route-table.ts';
import { useMe } from '../lib/session.ts';

// The form and the detail (react-hook-form, the line editor, date pickers) load with their dialog, not with the list.
const loadForm = () => import('../features/sales-offers/components/offer-form.tsx');
const loadDetail = () => import('../features/sales-offers/components/offer-detail.tsx');
const OfferForm = lazyNamed(loadForm, 'OfferForm');
const OfferDetail = lazyNamed(loadDetail, 'OfferDetail');
const preloadNew = () => {
  void preloadRecordModal();
  void loadForm();
};

/** Offers are wide (ten line columns): the dialog takes most of the screen. */
const DIALOG_SIZE = 'min(1360px, calc(100vw - 48px))';

/**
 * /sales-offers. A row opens the offer in a dialog over the list (`?open=<id>`); "New offer" (staff)
 * opens the create form (`?new=1`). Customers see the offers sent to them and accept or reject them there.
 */
export default function SalesOffersScreen() {
  const me = useMe();
  const [search, setSearch] = useRouteSearch<SalesOffersSearch>();
  const queryClient = useQueryClient();
  const role = me.data?.role;
  const staff = role === 'admin' || role === 'staff';
  const config = useMemo(() => offerListConfig({ staff, customerLookup: customerPartyLookup }), [staff]);
  // The parties area knows the customer (its first contact, country and VAT number), company settings
  // the seller's country: the offer form reads them for the contact and the lines' default VAT.
  const customerInfo: OfferCustomerSource = useCallback(
    async (customerId) => {
      const party = await queryClient.fetchQuery({ ...partyOptions(customerId), staleTime: 60_000 });
      const first = party.contacts[0];
      return {
        contactName: first?.name ?? null,
        contactEmail: first?.email ?? party.email,
        countryCode: party.countryCode,
        vatNumber: party.vatNumber,
      };
    },
    [queryClient],
  );
  const company = useQuery({ ...companyOptions(), enabled: staff, staleTime: 300_000 });
  const sellerCountry = company.data?.countryCode ?? null;
  const keepsForm = (key: 'new' | 'open') => (next: { pathname: string; search: Record<string, unknown> }) =>
    next.pathname === pathFor('sales-offers') &&
    (key === 'new' ? next.search.new === 1 : next.search.open === search.open);
  const closeNew = () => setSearch({ new: undefined });
  const closeDetail = () => setSearch({ open: undefined, tab: undefined, edit: undefined });

  return (
    <ScreenFrame route="sales-offers">
      <ListPage
        config={config}
        onOpen={(o) => setSearch({ open: o.id, tab: undefined })}
        actions={
          staff && (
            <Button
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={() => setSearch({ new: 1 })}
              onPointerEnter={preloadNew}
              onFocus={preloadNew}
              data-testid="new-offer"
            >
              New offer
            </Button>
          )
        }
      />
      <RecordModal
        opened={staff && search.new === 1}
        title="New offer"
        onClose={closeNew}
        size={DIALOG_SIZE}
        testId="new-offer-dialog"
      >
        <OfferForm
          customerLookup={customerPartyLookup}
          customerInfo={customerInfo}
          sellerCountry={sellerCountry}
          onSaved={(o) => setSearch({ new: undefined, open: o.id })}
          onCancel={closeNew}
          keepsForm={keepsForm('new')}
        />
      </RecordModal>
      <RecordModal
        opened={Boolean(search.open) && search.new !== 1}
        title="Sales offer"
        onClose={closeDetail}
        size={DIALOG_SIZE}
        testId="offer-dialog"
      >
        {search.open && (
          <OfferDetail
            id={search.open}
            staff={staff}
            customerLookup={customerPartyLookup}
            customerInfo={customerInfo}
            sellerCountry={sellerCountry}
            keepsForm={keepsForm('open')}
            onDeleted={closeDetail}
          />
        )}
      </RecordModal>
    </ScreenFrame>
  );
}
