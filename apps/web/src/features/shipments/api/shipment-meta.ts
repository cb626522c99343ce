import {
  type AllocationState,
  type CustomsStatus,
  OUTBOUND_PROCEDURE_LABELS,
  OUTBOUND_PROCEDURES,
  outboundProceduresFor,
  SHIPMENT_STATUS_LABELS,
  SHIPMENT_STATUSES,
  SHIPMENT_TRANSITION_LABELS,
  SHIPMENT_TRANSITIONS,
  type ShipmentAction,
  type ShipmentStatus,
  type ShipmentTransitionTarget,
} from '@fvg/contracts';
import type { MantineColor } from '@mantine/core';

export {
  OUTBOUND_PROCEDURE_LABELS,
  SHIPMENT_STATUS_LABELS,
  SHIPMENT_TRANSITION_LABELS,
  SHIPMENT_TRANSITIONS,
};

export const SHIPMENT_STATUS_COLORS: Readonly<Record<ShipmentStatus, MantineColor>> = {
  draft: 'gray',
  released: 'blue',
  picking: 'yellow',
  packed: 'violet',
  shipped: 'green',
  cancelled: 'red',
};

export const SHIPMENT_STATUS_OPTIONS = SHIPMENT_STATUSES.map((s) => ({
  value: s,
  label: SHIPMENT_STATUS_LABELS[s],
}));
export const OUTBOUND_PROCEDURE_OPTIONS = OUTBOUND_PROCEDURES.map((p) => ({
  value: p,
  label: OUTBOUND_PROCEDURE_LABELS[p],
}));

/**
 * The procedures offered for goods of these customs statuses: those that fit them (`outboundProceduresFor`)
 * first, the others disabled; every one while the goods are not known yet.
 */
export function procedureOptionsFor(statuses: readonly CustomsStatus[]) {
  const fitting = outboundProceduresFor(statuses);
  return [
    ...OUTBOUND_PROCEDURE_OPTIONS.filter((o) => fitting.includes(o.value)),
    ...OUTBOUND_PROCEDURE_OPTIONS.filter((o) => !fitting.includes(o.value)).map((o) => ({
      ...o,
      disabled: true,
    })),
  ];
}

/** The server's allowed action behind each transition button (`allowedActions` names actions, not statuses). */
export const TRANSITION_ACTION: Readonly<Record<ShipmentTransitionTarget, ShipmentAction>> = {
  released: 'release',
  picking: 'pick',
  packed: 'pack',
  shipped: 'ship',
  cancelled: 'cancel',
};

/** The transitions the user may make now, in workflow order. */
export function allowedTransitions(
  status: ShipmentStatus,
  allowedActions: readonly ShipmentAction[],
): ShipmentTransitionTarget[] {
  return SHIPMENT_TRANSITIONS[status].filter((to) => allowedActions.includes(TRANSITION_ACTION[to]));
}

/** What each transition does to the stock, asked before it happens: none of them can be undone. */
export const SHIPMENT_TRANSITION_CONFIRM: Readonly<Record<ShipmentTransitionTarget, string>> = {
  released: 'Reserve the stock for every line, oldest receipts first? The lines can no longer be edited.',
  picking: 'Start picking this shipment?',
  packed: 'Mark this shipment packed?',
  shipped: 'Ship this shipment? The picked goods leave the stock for good.',
  cancelled: 'Cancel this shipment? Its reservations are freed and it cannot be reopened.',
};

export { ALLOCATION_STATE_LABELS } from '@fvg/contracts';

export const ALLOCATION_STATE_COLORS: Readonly<Record<AllocationState, MantineColor>> = {
  reserved: 'blue',
  picked: 'teal',
  shipped: 'green',
  freed: 'gray',
};

/** The labels of the shipment's fields as the editor and the server's problems name them. */
export const SHIPMENT_FIELD_LABELS: Readonly<Record<string, string>> = {
  ownerId: 'Owner',
  consigneeId: 'Consignee',
  consigneeName: 'Consignee name',
  deliveryAddress: 'Delivery address',
  plannedDate: 'Planned date',
  outboundProcedure: 'Outbound procedure',
  customerReference: 'Customer reference',
  notes: 'Internal notes',
  lines: 'Lines',
  sku: 'Article (SKU)',
  stockRecordId: 'Stock record',
  quantity: 'Quantity',
  declaration: 'Outbound declaration',
  status: 'Status',
  version: 'Version',
};
