/**
 * The dossiers values that screens and the router read without the schemas (no zod here:
 * importing a value must not pull in the area's schemas; ADR 0023).
 */

export const DOSSIER_TYPES = ['import', 'export', 'transit', 'warehouse', 'domestic', 'crosstrade'] as const;

export const DOSSIER_MODES = ['sea', 'air', 'road', 'rail', 'multimodal'] as const;

/** Words of the types and modes, for every screen that shows them (dossiers, and the offers that become dossiers). */
export const DOSSIER_TYPE_LABELS: Readonly<Record<(typeof DOSSIER_TYPES)[number], string>> = {
  import: 'Import',
  export: 'Export',
  transit: 'Transit',
  warehouse: 'Warehouse',
  domestic: 'Domestic',
  crosstrade: 'Cross-trade',
};

export const DOSSIER_MODE_LABELS: Readonly<Record<(typeof DOSSIER_MODES)[number], string>> = {
  sea: 'Sea',
  air: 'Air',
  road: 'Road',
  rail: 'Rail',
  multimodal: 'Multimodal',
};

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

export const DOSSIER_STATUS_LABELS: Readonly<Record<(typeof DOSSIER_STATUSES)[number], string>> = {
  requested: 'Requested',
  booked: 'Booked',
  in_transit: 'In transit',
  arrived: 'Arrived',
  cleared: 'Cleared',
  delivered: 'Delivered',
  closed: 'Closed',
  cancelled: 'Cancelled',
};

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
