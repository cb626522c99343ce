import {
  DECLARATION_STATUS_LABELS,
  DECLARATION_TYPE_LABELS,
  type OutboundProcedure,
  quantityWithUnit,
  type Shipment,
  type ShipmentStatus,
  type ShipmentTransitionTarget,
  SHIPMENT_STATUS_LABELS as STATUS_LABELS,
} from '@fvg/contracts';
import { Alert, Anchor, Button, Group, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconClipboardList, IconFileImport, IconPencil } from '@tabler/icons-react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { ConfirmDialog, DeleteRecordButton } from '../../../components/records/confirm-dialog.tsx';
import {
  DetailLayout,
  type DetailTab,
  useRecordByNumber,
} from '../../../components/records/detail-layout.tsx';
import { SidePanel } from '../../../components/records/facts.tsx';
import { RecordHistory } from '../../../components/records/history-tab.tsx';
import { StatusBadge } from '../../../components/records/status-badge.tsx';
import { TransitionButtons } from '../../../components/records/transition-buttons.tsx';
import { useAdminMode } from '../../../lib/admin-mode.ts';
import { isApiError, problemMessage } from '../../../lib/api-client.ts';
import { formatNumber } from '../../../lib/format.ts';
import { formatDate, formatDateTime } from '../../../lib/format-date.ts';
import { pathFor } from '../../../lib/route-table.ts';
import { useMe } from '../../../lib/session.ts';
import { DECLARATION_STATUS_COLORS } from '../../declarations/index.ts';
import { DocumentsTab } from '../../documents/index.ts';
import {
  allowedTransitions,
  OUTBOUND_PROCEDURE_LABELS,
  procedureOptionsFor,
  SHIPMENT_FIELD_LABELS,
  SHIPMENT_STATUS_COLORS,
  SHIPMENT_TRANSITION_CONFIRM,
  SHIPMENT_TRANSITION_LABELS,
  SHIPMENT_TRANSITIONS,
} from '../api/shipment-meta.ts';
import {
  shipmentHistoryOptions,
  shipmentOptions,
  useCreateShipmentDeclaration,
  useDeleteShipment,
  usePickShipment,
  useTransitionShipment,
  useUpdateShipment,
} from '../api/shipments-api.ts';
import { ShipmentLines } from './shipment-lines.tsx';

/** Statuses whose reservations the pick list prints. */
const PICKABLE: readonly ShipmentStatus[] = ['released', 'picking', 'packed'];

const DONE: Readonly<Record<ShipmentTransitionTarget, string>> = {
  released: 'Released: the stock is reserved, oldest receipts first.',
  picking: 'Picking started.',
  packed: 'Marked packed.',
  shipped: 'Shipped: the goods have left the stock.',
  cancelled: 'Cancelled: the reservations are freed.',
};

/** `lines.2.quantity` → 2: the line a refused release names. */
export function lineErrorsOf(error: unknown): Record<number, string> {
  const out: Record<number, string> = {};
  if (!isApiError(error)) return out;
  for (const e of error.fieldErrors) {
    const m = /^lines\.(\d+)\./.exec(e.field);
    if (m) out[Number(m[1])] ??= e.message;
  }
  return out;
}

/** Whether the user has anything to do with the shipment now (else no action bar at all). */
export function hasShipmentActions(s: Shipment, staff: boolean): boolean {
  return (
    allowedTransitions(s.status, s.allowedActions).length > 0 ||
    (staff && PICKABLE.includes(s.status)) ||
    s.allowedActions.some((a) => a === 'edit' || a === 'delete' || a === 'declare')
  );
}

export interface ShipmentActionsProps {
  shipment: Shipment;
  /** The pick list is the warehouse's working paper: staff only. */
  staff: boolean;
  /** A refused change's per-line messages (a release short of stock), or {} to clear them. */
  onLineErrors: (errors: Record<number, string>) => void;
  onDeleted: () => void;
}

/**
 * What the user may do now, as the server's `allowedActions` say (a customer: edit or delete its
 * own draft; staff: the lifecycle): the status changes, each asked first since none can be undone;
 * Edit and Delete for drafts; the pick list; the outbound declaration.
 */
export function ShipmentActions({ shipment: s, staff, onLineErrors, onDeleted }: ShipmentActionsProps) {
  const transition = useTransitionShipment();
  const declare = useCreateShipmentDeclaration();
  const remove = useDeleteShipment();
  const [deleting, setDeleting] = useState(false);
  const can = (action: Shipment['allowedActions'][number]) => s.allowedActions.includes(action);

  return (
    <>
      <TransitionButtons<ShipmentTransitionTarget | ShipmentStatus>
        current={s.status}
        allowed={allowedTransitions(s.status, s.allowedActions)}
        workflow={SHIPMENT_TRANSITIONS}
        labels={{ ...STATUS_LABELS, ...SHIPMENT_TRANSITION_LABELS }}
        confirm={SHIPMENT_TRANSITION_CONFIRM}
        danger={['cancelled']}
        onTransition={async (to) => {
          onLineErrors({});
          await transition.mutateAsync({
            id: s.id,
            body: { to: to as ShipmentTransitionTarget, version: s.version },
          });
          return { message: DONE[to as ShipmentTransitionTarget] };
        }}
        onError={(error) => {
          const lines = lineErrorsOf(error);
          onLineErrors(lines);
          const count = Object.keys(lines).length;
          notifications.show({
            color: 'red',
            title: 'Status not changed',
            message: count
              ? `${count === 1 ? 'One line is' : `${count} lines are`} short of stock: see the lines. Nothing was reserved.`
              : problemMessage(error),
          });
        }}
      />
      {can('declare') && (
        <Button
          variant="default"
          leftSection={<IconFileImport size={16} aria-hidden />}
          loading={declare.isPending}
          onClick={() =>
            declare.mutateAsync({ id: s.id, version: s.version }).then(
              (saved) =>
                notifications.show({
                  color: 'green',
                  message: saved.declaration
                    ? `Outbound declaration ${saved.declaration.lrn} drafted: check it and lodge it.`
                    : 'Outbound declaration drafted: check it and lodge it.',
                }),
              (error: unknown) =>
                notifications.show({
                  color: 'red',
                  title: 'Declaration not created',
                  message: problemMessage(error),
                }),
            )
          }
          data-testid="create-declaration"
        >
          Create outbound declaration
        </Button>
      )}
      {staff && PICKABLE.includes(s.status) && (
        <Button
          component={Link}
          to={pathFor('shipment-alt', { id: s.number })}
          variant="default"
          leftSection={<IconClipboardList size={16} aria-hidden />}
          data-testid="pick-list"
        >
          Pick list
        </Button>
      )}
      {can('edit') && (
        <Button
          component={Link}
          to={pathFor('shipment-edit', { id: s.number })}
          variant="default"
          leftSection={<IconPencil size={16} aria-hidden />}
          data-testid="edit-record"
        >
          Edit
        </Button>
      )}
      {can('delete') && <DeleteRecordButton variant="subtle" onClick={() => setDeleting(true)} />}
      <ConfirmDialog
        opened={deleting}
        title="Delete the draft"
        message={`Delete draft shipment ${s.number}? This cannot be undone.`}
        confirmLabel="Delete"
        danger
        loading={remove.isPending}
        onCancel={() => setDeleting(false)}
        onConfirm={() =>
          remove.mutateAsync(s.id).then(
            () => {
              setDeleting(false);
              notifications.show({ color: 'green', message: `Draft shipment ${s.number} deleted.` });
              onDeleted();
            },
            (error: unknown) => {
              setDeleting(false);
              notifications.show({ color: 'red', title: 'Not deleted', message: problemMessage(error) });
            },
          )
        }
      />
    </>
  );
}

/**
 * A released shipment's outbound procedure, for staff to set or change until it ships (so that its
 * declaration can be made, changed or replaced); the server says why a change is refused.
 */
function ProcedureSelect({ shipment: s }: { shipment: Shipment }) {
  const update = useUpdateShipment();
  return (
    <Select
      size="xs"
      aria-label="Outbound procedure"
      placeholder="Choose the procedure"
      data={procedureOptionsFor(
        s.lines.flatMap((l) => l.allocations.filter((a) => a.state !== 'freed').map((a) => a.customsStatus)),
      )}
      value={s.outboundProcedure}
      disabled={update.isPending}
      allowDeselect={false}
      onChange={(value) => {
        if (!value || value === s.outboundProcedure) return;
        update
          .mutateAsync({
            id: s.id,
            body: { version: s.version, outboundProcedure: value as OutboundProcedure },
          })
          .then(
            () =>
              notifications.show({
                color: 'green',
                message: `Outbound procedure set to ${OUTBOUND_PROCEDURE_LABELS[value as OutboundProcedure]}.`,
              }),
            (error: unknown) =>
              notifications.show({
                color: 'red',
                title: 'Procedure not changed',
                message: problemMessage(error),
              }),
          );
      }}
      data-testid="procedure-select"
    />
  );
}

/** A declaration of the shipment as a link with its status in words. */
function DeclarationRef({ d, testId }: { d: NonNullable<Shipment['declaration']>; testId: string }) {
  return (
    <Group gap="xs" wrap="nowrap" data-testid={testId}>
      <Anchor component={Link} to={pathFor('declaration', { id: d.lrn })} size="sm" ff="monospace">
        {d.lrn}
      </Anchor>
      <Text size="sm" c="dimmed">
        {DECLARATION_TYPE_LABELS[d.type].toLowerCase()}, {DECLARATION_STATUS_LABELS[d.status].toLowerCase()},{' '}
        {formatDate(d.createdAt)}
      </Text>
    </Group>
  );
}

/** The outbound declaration: the current one's link, LRN, MRN and status, and the earlier ones. */
function DeclarationPanel({ shipment: s }: { shipment: Shipment }) {
  const d = s.declaration;
  const earlier = s.declarations.filter((x) => x.id !== d?.id);
  return (
    <SidePanel
      title="Outbound declaration"
      rows={[
        [
          'Procedure',
          s.allowedActions.includes('procedure') ? (
            <ProcedureSelect key="procedure" shipment={s} />
          ) : s.outboundProcedure ? (
            OUTBOUND_PROCEDURE_LABELS[s.outboundProcedure]
          ) : (
            'Not chosen'
          ),
        ],
        [
          'LRN',
          d ? (
            <Anchor
              key="lrn"
              component={Link}
              to={pathFor('declaration', { id: d.lrn })}
              size="sm"
              ff="monospace"
              data-testid="declaration-link"
            >
              {d.lrn}
            </Anchor>
          ) : null,
        ],
        ['Type', d ? DECLARATION_TYPE_LABELS[d.type] : null],
        [
          'MRN',
          d?.mrn ? (
            <Text key="mrn" size="sm" ff="monospace">
              {d.mrn}
            </Text>
          ) : null,
        ],
        [
          'Status',
          d ? (
            <StatusBadge
              key="status"
              status={d.status}
              colors={DECLARATION_STATUS_COLORS}
              labels={DECLARATION_STATUS_LABELS}
              size="sm"
              testId="declaration-status"
            />
          ) : null,
        ],
      ]}
    >
      {!d && (
        <Text size="sm" c="dimmed" data-testid="declaration-none">
          {s.nonUnion
            ? 'Non-Union goods: they may leave only under an outbound declaration.'
            : 'Union goods only: no outbound declaration is needed.'}
        </Text>
      )}
      {earlier.length > 0 && (
        <Stack gap={4} data-testid="earlier-declarations">
          <Text size="sm" c="dimmed">
            Earlier declarations of this shipment
          </Text>
          {earlier.map((x) => (
            <DeclarationRef key={x.id} d={x} testId={`earlier-declaration-${x.lrn}`} />
          ))}
        </Stack>
      )}
    </SidePanel>
  );
}

function HistoryPanel({ id }: { id: string }) {
  const adminMode = useAdminMode(useMe().data?.role);
  return (
    <RecordHistory
      query={shipmentHistoryOptions(id)}
      fieldLabels={SHIPMENT_FIELD_LABELS}
      valueLabels={{ status: STATUS_LABELS }}
      allowRaw={adminMode.enabled}
    />
  );
}

/** /shipments/$id: header and actions, the ship blocker, the lines with their FIFO allocations, the declaration, documents and history. */
export function ShipmentDetail({ id, staff }: { id: string; staff: boolean }) {
  // Addressed by its number (or its id), read by its id once found (ADR 0071).
  const { first: query, record: s } = useRecordByNumber(shipmentOptions, 'shipment', id, {
    id: (x) => x.id,
    number: (x) => x.number,
  });
  const navigate = useNavigate();
  const [lineErrors, setLineErrors] = useState<Record<number, string>>({});
  const pick = usePickShipment();
  const picking =
    s?.allowedActions.includes('confirmPicks') === true
      ? {
          pending: pick.isPending,
          onPick: (allocationIds: string[], picked: boolean) =>
            pick.mutate(
              { id: s.id, body: { allocationIds, picked, version: s.version } },
              {
                onError: (error) =>
                  notifications.show({
                    color: 'red',
                    title: picked ? 'Pick not confirmed' : 'Not put back',
                    message: problemMessage(error),
                  }),
              },
            ),
        }
      : undefined;

  const tabs: DetailTab[] = s
    ? [
        {
          value: 'lines',
          label: 'Lines',
          badge: s.lines.length,
          content: <ShipmentLines lines={s.lines} lineErrors={lineErrors} picking={picking} />,
        },
        {
          value: 'documents',
          label: 'Documents',
          content: <DocumentsTab recordType="shipment" recordId={s.id} />,
        },
        { value: 'history', label: 'History', content: <HistoryPanel id={s.id} /> },
      ]
    : [];
  const unit = s?.lines[0]?.unit;
  const sameUnit = s && unit && s.lines.every((l) => l.unit === unit);

  return (
    <DetailLayout
      route="shipment"
      recordId={s?.number ?? id}
      query={query}
      subtitle={s ? (staff ? `${s.owner.name} (${s.owner.code})` : s.owner.name) : undefined}
      status={
        s && (
          <StatusBadge
            status={s.status}
            colors={SHIPMENT_STATUS_COLORS}
            labels={STATUS_LABELS}
            testId="shipment-status"
          />
        )
      }
      actions={
        s &&
        hasShipmentActions(s, staff) && (
          <ShipmentActions
            shipment={s}
            staff={staff}
            onLineErrors={setLineErrors}
            onDeleted={() => void navigate({ to: pathFor('shipments') })}
          />
        )
      }
      tabs={tabs}
      side={
        s && (
          <Stack gap="md">
            <SidePanel
              title="Shipment"
              rows={[
                ['Owner', s.owner.name],
                ['Consignee', s.consignee?.name ?? s.consigneeName],
                [
                  'Delivery address',
                  s.deliveryAddress ? (
                    <span key="address" style={{ whiteSpace: 'pre-line' }}>
                      {s.deliveryAddress}
                    </span>
                  ) : null,
                ],
                ['Planned', s.plannedDate ? formatDate(s.plannedDate) : null],
                ['Customer reference', s.customerReference],
                [
                  'Quantity',
                  sameUnit && unit
                    ? quantityWithUnit(formatNumber(s.quantity), unit)
                    : formatNumber(s.quantity),
                ],
                ['Released', s.releasedAt ? formatDateTime(s.releasedAt) : null],
                ['Shipped', s.shippedAt ? formatDateTime(s.shippedAt) : null],
                ...(s.cancelledAt ? ([['Cancelled', formatDateTime(s.cancelledAt)]] as const) : []),
                ...(s.cancelReason ? ([['Cancel reason', s.cancelReason]] as const) : []),
                ...(staff ? ([['Internal notes', s.notes]] as const) : []),
                ['Created', `${formatDateTime(s.createdAt)}${s.createdBy ? ` by ${s.createdBy.name}` : ''}`],
              ]}
            />
            <DeclarationPanel shipment={s} />
          </Stack>
        )
      }
      banner={
        s?.shipBlocker &&
        s.status !== 'shipped' &&
        s.status !== 'cancelled' && (
          <Alert
            color="orange"
            variant="light"
            icon={<IconAlertTriangle size={18} aria-hidden />}
            title="Cannot ship yet"
            data-testid="ship-blocker"
          >
            {s.shipBlocker}
          </Alert>
        )
      }
    />
  );
}
