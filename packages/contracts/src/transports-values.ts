/**
 * The transports values that screens and the router read without the schemas (no zod here:
 * importing a value must not pull in the area's schemas; ADR 0023).
 */

export const TRANSPORT_STATUSES = [
  'planned',
  'dispatched',
  'picked_up',
  'in_transit',
  'delivered',
  'cancelled',
] as const;

export const TRANSPORT_STATUS_LABELS: Readonly<Record<(typeof TRANSPORT_STATUSES)[number], string>> = {
  planned: 'Planned',
  dispatched: 'Dispatched',
  picked_up: 'Picked up',
  in_transit: 'In transit',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
};

export const TRANSPORT_MODES = ['road', 'sea', 'air', 'rail', 'barge'] as const;

export const TRANSPORT_MODE_LABELS: Readonly<Record<(typeof TRANSPORT_MODES)[number], string>> = {
  road: 'Road',
  sea: 'Sea',
  air: 'Air',
  rail: 'Rail',
  barge: 'Barge',
};
