import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { ListScreen } from '../components/records/list-screen.tsx';
import { preloadRecordModal } from '../components/records/record-modal.tsx';
import { useRouteSearch } from '../components/records/use-route-search.ts';
import { companyOptions } from '../features/company/api/company-api.ts';
import { customerPartyLookup, partyOptions } from '../features/parties/api/parties-api.ts';
import type { OfferCustomerSource } from '../features/sales-offers/components/offer-form.tsx';
import { offerListConfig } from '../features/sales-offers/components/offer-list-config.tsx';
import { lazyNamed } from '../lib/lazy-component.ts';
import { useIsStaff } from '../lib/session.ts';

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
  const [, setSearch] = useRouteSearch();
  const queryClient = useQueryClient();
  const staff = useIsStaff();
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
  const offerProps = { customerLookup: customerPartyLookup, customerInfo, sellerCountry };

  return (
    <ListScreen
      route="sales-offers"
      config={config}
      create={
        staff && {
          label: 'New offer',
          testId: 'new-offer',
          dialogTestId: 'new-offer-dialog',
          size: DIALOG_SIZE,
          preload: preloadNew,
          form: ({ close, keepsForm }) => (
            <OfferForm
              {...offerProps}
              onSaved={(o) => setSearch({ new: undefined, open: o.id })}
              onCancel={close}
              keepsForm={keepsForm}
            />
          ),
        }
      }
      open={{
        rowId: (o) => o.id,
        title: 'Sales offer',
        dialogTestId: 'offer-dialog',
        size: DIALOG_SIZE,
        content: (id, { close, keepsForm }) => (
          <OfferDetail id={id} staff={staff} {...offerProps} keepsForm={keepsForm} onDeleted={close} />
        ),
      }}
    />
  );
}
