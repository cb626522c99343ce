import { Button, SegmentedControl } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPackageImport } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { ListPage } from '../components/records/list-page.tsx';
import { preloadRecordModal, RecordModal } from '../components/records/record-modal.tsx';
import { useRouteSearch } from '../components/records/use-route-search.ts';
import { ScreenFrame } from '../components/screen-frame.tsx';
import { customerPartyLookup } from '../features/parties/api/parties-api.ts';
import type { StockSearch } from '../features/stock/api/search.ts';
import { receiptOptions } from '../features/stock/api/stock-api.ts';
import { receiptListConfig, stockListConfig } from '../features/stock/components/stock-list-config.tsx';
import { lazyNamed } from '../lib/lazy-component.ts';
import { pathFor } from '../lib/route-table.ts';
import { useMe } from '../lib/session.ts';

// The form (react-hook-form, the line editor, date pickers) loads when the dialog opens, not with the list.
const loadForm = () => import('../features/stock/components/receipt-form.tsx');
const ReceiptForm = lazyNamed(loadForm, 'ReceiptForm');
const preloadDialog = () => {
  void preloadRecordModal();
  void loadForm();
};

/** Every parameter one view has and the other does not: switching views starts clean. */
const VIEW_RESET = {
  page: undefined,
  sort: undefined,
  q: undefined,
  sku: undefined,
  customsStatus: undefined,
  location: undefined,
  available: undefined,
  onHand: undefined,
  receiptId: undefined,
  reference: undefined,
  from: undefined,
  to: undefined,
};

/**
 * /stock: what the customs warehouse holds (stock records), or its receipts (`view=receipts`; a
 * receipt opens the stock of its lines). Staff with warehouse access "Receive goods" in a dialog over
 * the list (`?new=1`); customers see their own party's stock, read-only.
 */
export default function StockScreen() {
  const me = useMe();
  const [search, setSearch] = useRouteSearch<StockSearch>();
  const staff = me.data?.role === 'admin' || me.data?.role === 'staff';
  const view = search.view === 'receipts' ? 'receipts' : 'stock';
  // The pinned receipt's chip names its number (the list's receipt column has it too, but not before it loads).
  const receipt = useQuery({ ...receiptOptions(search.receiptId ?? ''), enabled: !!search.receiptId });
  const pinnedNumber = receipt.data?.number;
  const stockConfig = useMemo(
    () =>
      stockListConfig({
        staff,
        ownerLookup: customerPartyLookup,
        receiptNumber: () => pinnedNumber,
      }),
    [staff, pinnedNumber],
  );
  const receiptsConfig = useMemo(
    () => receiptListConfig({ staff, ownerLookup: customerPartyLookup }),
    [staff],
  );
  const close = () => setSearch({ new: undefined });
  const keepsForm = (next: { pathname: string; search: Record<string, unknown> }) =>
    next.pathname === pathFor('stock') && next.search.new === 1;

  const actions = (
    <>
      <SegmentedControl
        value={view}
        onChange={(v) => setSearch({ ...VIEW_RESET, view: v === 'receipts' ? 'receipts' : undefined })}
        data={[
          { value: 'stock', label: 'Stock' },
          { value: 'receipts', label: 'Receipts' },
        ]}
        aria-label="Show stock or receipts"
        data-testid="stock-view"
      />
      {staff && (
        <Button
          leftSection={<IconPackageImport size={16} aria-hidden />}
          onClick={() => setSearch({ new: 1 })}
          onPointerEnter={preloadDialog}
          onFocus={preloadDialog}
          data-testid="receive-goods"
        >
          Receive goods
        </Button>
      )}
    </>
  );

  return (
    <ScreenFrame route="stock">
      {view === 'receipts' ? (
        <ListPage
          key="receipts"
          config={receiptsConfig}
          actions={actions}
          onOpen={(receipt) => setSearch({ ...VIEW_RESET, view: undefined, receiptId: receipt.id })}
        />
      ) : (
        <ListPage key="stock" config={stockConfig} actions={actions} />
      )}
      <RecordModal
        opened={staff && search.new === 1}
        title="Receive goods"
        onClose={close}
        testId="receipt-dialog"
        size="90rem"
      >
        <ReceiptForm
          ownerLookup={customerPartyLookup}
          onSaved={(receipt) => {
            notifications.show({
              color: 'green',
              message: `Receipt ${receipt.number} booked: ${receipt.lines.length === 1 ? '1 stock record' : `${receipt.lines.length} stock records`}.`,
            });
            setSearch({ ...VIEW_RESET, new: undefined, view: undefined, receiptId: receipt.id });
          }}
          onCancel={close}
          keepsForm={keepsForm}
        />
      </RecordModal>
    </ScreenFrame>
  );
}
