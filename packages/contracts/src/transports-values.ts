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

export const TRANSPORT_MODES = ['road', 'sea', 'air', 'rail', 'barge'] as const;
