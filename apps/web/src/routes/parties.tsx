import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { ListPage } from '../components/records/list-page.tsx';
import { RecordModal } from '../components/records/record-modal.tsx';
import { useRouteSearch } from '../components/records/use-route-search.ts';
import { ScreenFrame } from '../components/screen-frame.tsx';
import { PartyForm } from '../features/parties/components/party-form.tsx';
import { partyListConfig } from '../features/parties/components/party-list-config.tsx';
import type { PartiesSearch } from '../features/parties/search.ts';
import { pathFor } from '../lib/route-table.ts';
import { useMe } from '../lib/session.ts';

export default function PartiesScreen() {
  const me = useMe();
  const navigate = useNavigate();
  const [search, setSearch] = useRouteSearch<PartiesSearch>();
  const staff = me.data?.role === 'admin' || me.data?.role === 'staff';
  const close = () => setSearch({ new: undefined });

  return (
    <ScreenFrame route="parties">
      <ListPage
        config={partyListConfig}
        actions={
          staff && (
            <Button
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={() => setSearch({ new: 1 })}
              data-testid="new-party"
            >
              New party
            </Button>
          )
        }
      />
      <RecordModal
        opened={staff && search.new === 1}
        title="New party"
        onClose={close}
        testId="new-party-dialog"
      >
        <PartyForm
          onSaved={(party) => void navigate({ to: pathFor('party', { id: party.id }) })}
          onCancel={close}
          keepsForm={(next) => next.pathname === pathFor('parties') && next.search.new === 1}
        />
      </RecordModal>
    </ScreenFrame>
  );
}
