/**
 * The dossiers values that screens and the router read without the schemas (no zod here:
 * importing a value must not pull in the area's schemas; ADR 0023).
 */

export const DOSSIER_TYPES = ['import', 'export', 'transit', 'warehouse', 'domestic', 'crosstrade'] as const;

export const DOSSIER_MODES = ['sea', 'air', 'road', 'rail', 'multimodal'] as const;

export const DOSSIER_STATUSES = [
  'requested',
  'booked',
  'in_transit',
  'arrived',
  'cleared',
  'delivered',
  'closed',
  'cancelled',
] as const;

export const DOSSIER_SORT_FIELDS = [
  'number',
  'status',
  'etd',
  'eta',
  'createdAt',
  'updatedAt',
  'customer',
  'profit',
] as const;
