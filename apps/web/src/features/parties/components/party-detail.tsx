import type { Party, Role } from '@fvg/contracts';
import { Anchor, Badge, Button, Group, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPencil } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { ConfirmDialog, DeleteRecordButton } from '../../../components/records/confirm-dialog.tsx';
import { DetailLayout, useRecordByNumber } from '../../../components/records/detail-layout.tsx';
import { FactsTable, SidePanel } from '../../../components/records/facts.tsx';
import { RecordHistory } from '../../../components/records/history-tab.tsx';
import { useRouteSearch } from '../../../components/records/use-route-search.ts';
import { useAdminMode } from '../../../lib/admin-mode.ts';
import { problemMessage } from '../../../lib/api-client.ts';
import { countryName } from '../../../lib/countries.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { pathFor } from '../../../lib/route-table.ts';
import { partyHistoryOptions, partyOptions, useDeleteParty } from '../api/parties-api.ts';
import { PartyForm } from './party-form.tsx';
import { EAS_SCHEME_OPTIONS, PARTY_FIELD_LABELS, PARTY_KIND_LABELS, type PartyKind } from './party-meta.ts';

function PartySummary({ party }: { party: Party }) {
  return (
    <FactsTable
      testId="party-summary"
      rows={[
        ['Name', party.name],
        ['Code', party.code],
        ['Roles', party.kinds.map((k) => PARTY_KIND_LABELS[k as PartyKind] ?? k).join(', ')],
        ['Country', `${party.countryCode} — ${countryName(party.countryCode)}`],
        ['VAT number', party.vatNumber],
        ['EORI', party.eori],
        [
          'Peppol address',
          party.peppolScheme && party.peppolId
            ? `${EAS_SCHEME_OPTIONS.find((o) => o.value === party.peppolScheme)?.label ?? party.peppolScheme}: ${party.peppolId}`
            : null,
        ],
        ['Street', party.street],
        ['Postal code and city', [party.postalCode, party.city].filter(Boolean).join(' ')],
        [
          'Email',
          party.email ? (
            <Anchor key="email" href={`mailto:${party.email}`}>
              {party.email}
            </Anchor>
          ) : null,
        ],
        ['Phone', party.phone],
      ]}
    />
  );
}

function PartyContacts({ party }: { party: Party }) {
  if (party.contacts.length === 0) {
    return (
      <Text c="dimmed" data-testid="contacts-empty">
        No contacts recorded.
      </Text>
    );
  }
  return (
    <Table striped withTableBorder data-testid="contacts">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th>Role</Table.Th>
          <Table.Th>Email</Table.Th>
          <Table.Th>Phone</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {party.contacts.map((c, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: contacts have no id of their own
          <Table.Tr key={i}>
            <Table.Td>{c.name}</Table.Td>
            <Table.Td>{c.role ?? '—'}</Table.Td>
            <Table.Td>{c.email ? <Anchor href={`mailto:${c.email}`}>{c.email}</Anchor> : '—'}</Table.Td>
            <Table.Td>{c.phone ?? '—'}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export interface PartyDetailProps {
  id: string;
  role: Role | undefined;
}

/** /parties/$id: summary, contacts and history; staff edit, admins (in admin mode) delete. */
export function PartyDetail({ id, role }: PartyDetailProps) {
  const navigate = useNavigate();
  const [search, setSearch] = useRouteSearch<{ tab?: string; edit?: 1 }>();
  // Addressed by its code (or its id), read by its id once found (ADR 0071).
  const { first: found, byId: party } = useRecordByNumber(partyOptions, 'party', id, {
    id: (p) => p.id,
    number: (p) => p.code,
  });
  const adminMode = useAdminMode(role);
  const remove = useDeleteParty(party.data?.id ?? id);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const staff = role === 'admin' || role === 'staff';
  const editing = staff && search.edit === 1 && (party.data ?? found.data) !== undefined;
  const data = party.data ?? found.data;

  const onDelete = () => {
    remove.mutate(undefined, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: `Party ${data?.code ?? ''} deleted.` });
        void navigate({ to: pathFor('parties'), replace: true });
      },
      onError: (error) =>
        notifications.show({ color: 'red', title: 'Not deleted', message: problemMessage(error) }),
      onSettled: () => setConfirmDelete(false),
    });
  };

  const actions = data && !editing && (
    <>
      {staff && (
        <Button
          variant="default"
          leftSection={<IconPencil size={16} aria-hidden />}
          onClick={() => setSearch({ edit: 1 })}
          data-testid="edit-record"
        >
          Edit
        </Button>
      )}
      {adminMode.enabled && <DeleteRecordButton onClick={() => setConfirmDelete(true)} />}
    </>
  );

  return (
    <>
      <DetailLayout
        route="party"
        recordId={data?.code ?? id}
        subtitle={data?.name}
        status={
          data && (
            <Group gap={4}>
              {data.kinds.map((kind) => (
                <Badge key={kind} variant="light">
                  {PARTY_KIND_LABELS[kind as PartyKind] ?? kind}
                </Badge>
              ))}
            </Group>
          )
        }
        actions={actions}
        query={found}
        tabs={
          data
            ? [
                { value: 'summary', label: 'Summary', content: <PartySummary party={data} /> },
                {
                  value: 'contacts',
                  label: 'Contacts',
                  badge: data.contacts.length || undefined,
                  content: <PartyContacts party={data} />,
                },
                {
                  value: 'history',
                  label: 'History',
                  content: (
                    <RecordHistory
                      query={partyHistoryOptions(data?.id ?? id)}
                      fieldLabels={PARTY_FIELD_LABELS}
                      allowRaw={adminMode.enabled}
                    />
                  ),
                },
              ]
            : []
        }
        side={
          data && (
            <SidePanel
              rows={[
                ['Created', formatDateTime(data.createdAt)],
                ['Updated', formatDateTime(data.updatedAt)],
              ]}
            />
          )
        }
      >
        {editing && data ? (
          <PartyForm
            party={data}
            onSaved={() => setSearch({ edit: undefined })}
            onCancel={() => setSearch({ edit: undefined })}
            reload={async () => (await party.refetch()).data}
            keepsForm={(next) => next.pathname === pathFor('party', { id }) && next.search.edit === 1}
          />
        ) : undefined}
      </DetailLayout>
      <ConfirmDialog
        opened={confirmDelete}
        title="Delete this party?"
        message="The party is removed for good. Parties used by users, dossiers, charges, transports, offers, invoices or declarations cannot be deleted."
        confirmLabel="Delete party"
        danger
        loading={remove.isPending}
        onConfirm={onDelete}
        onCancel={() => setConfirmDelete(false)}
      />
    </>
  );
}
