import { useNavigate } from '@tanstack/react-router';
import { ListScreen } from '../components/records/list-screen.tsx';
import { PartyForm } from '../features/parties/components/party-form.tsx';
import { partyListConfig } from '../features/parties/components/party-list-config.tsx';
import { pathFor } from '../lib/route-table.ts';
import { useIsStaff } from '../lib/session.ts';

export default function PartiesScreen() {
  const staff = useIsStaff();
  const navigate = useNavigate();
  return (
    <ListScreen
      route="parties"
      config={partyListConfig}
      create={
        staff && {
          label: 'New party',
          testId: 'new-party',
          dialogTestId: 'new-party-dialog',
          form: ({ close, keepsForm }) => (
            <PartyForm
              onSaved={(party) => void navigate({ to: pathFor('party', { id: party.code }) })}
              onCancel={close}
              keepsForm={keepsForm}
            />
          ),
        }
      }
    />
  );
}
