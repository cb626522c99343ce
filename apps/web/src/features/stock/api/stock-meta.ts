import {
  CUSTOMS_STATUS_LABELS,
  CUSTOMS_STATUSES,
  type CustomsStatus,
  HANDLING_UNIT_KIND_LABELS,
  HANDLING_UNIT_KINDS,
  type HandlingUnitKind,
  MOVEMENT_KIND_LABELS,
  MOVEMENT_KINDS,
  type MovementKind,
  quantityWithUnit,
  STOCK_UNIT_LABELS,
  STOCK_UNITS,
  type StockUnit,
} from '@fvg/contracts';
import type { MantineColor } from '@mantine/core';
import { formatNumber } from '../../../lib/format.ts';

export { CUSTOMS_STATUS_LABELS, HANDLING_UNIT_KIND_LABELS, MOVEMENT_KIND_LABELS };

/** Union goods are free to go; non-Union goods wait for an outbound declaration (warmer colours). */
export const CUSTOMS_STATUS_COLORS: Record<CustomsStatus, MantineColor> = {
  union: 'green',
  non_union_customs_warehousing: 'orange',
  temporary_storage: 'red',
};

/** Short enough for a narrow cell or a badge; the full label names the status in facts and filters. */
export const CUSTOMS_STATUS_SHORT_LABELS: Readonly<Record<CustomsStatus, string>> = {
  union: 'Union',
  non_union_customs_warehousing: 'Customs warehousing',
  temporary_storage: 'Temporary storage',
};

export const MOVEMENT_KIND_COLORS: Record<MovementKind, MantineColor> = {
  receipt: 'green',
  transfer: 'blue',
  pick: 'violet',
  adjustment: 'yellow',
};

export const HANDLING_UNIT_KIND_COLORS: Record<HandlingUnitKind, MantineColor> = {
  pallet: 'indigo',
  carton: 'cyan',
  item: 'gray',
};

export const CUSTOMS_STATUS_OPTIONS = CUSTOMS_STATUSES.map((s) => ({
  value: s,
  label: CUSTOMS_STATUS_LABELS[s],
}));
export const MOVEMENT_KIND_OPTIONS = MOVEMENT_KINDS.map((k) => ({
  value: k,
  label: MOVEMENT_KIND_LABELS[k],
}));
export const HANDLING_UNIT_KIND_OPTIONS = HANDLING_UNIT_KINDS.map((k) => ({
  value: k,
  label: HANDLING_UNIT_KIND_LABELS[k],
}));
/** "Pieces (H87)": the plural reads as what is counted; the code is what the declaration carries. */
export const STOCK_UNIT_OPTIONS = STOCK_UNITS.map((u) => ({
  value: u,
  label: `${capitalize(STOCK_UNIT_LABELS[u].many)} (${u})`,
}));

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "1,200 pieces", "1 pallet"-style quantity with the user's number format. */
export function formatQuantity(quantity: number, unit: StockUnit): string {
  return quantityWithUnit(formatNumber(quantity, { maximumFractionDigits: 0 }), unit);
}

/** A signed movement quantity: "+40 pieces", "−5 pieces", "0 pieces" (a transfer moves, it counts nothing). */
export function formatSignedQuantity(quantity: number, unit: StockUnit): string {
  const sign = quantity > 0 ? '+' : quantity < 0 ? '−' : '';
  return `${sign}${formatQuantity(Math.abs(quantity), unit)}`;
}

/** The labels of the stock fields as forms and the server's problems name them. */
export const STOCK_FIELD_LABELS: Record<string, string> = {
  ownerId: 'Owner',
  receivedOn: 'Received on',
  customsStatus: 'Customs status',
  inboundMrn: 'Inbound MRN',
  inboundMrnExternal: 'The MRN is another declarant’s entry (external)',
  entryDeclarationId: 'Entry declaration',
  notes: 'Internal notes',
  lines: 'Lines',
  sku: 'SKU',
  description: 'Description',
  commodityCode: 'Commodity code',
  countryOfOrigin: 'Origin',
  unit: 'Unit',
  quantity: 'Quantity',
  location: 'Location',
  packages: 'Packages',
  grossMassKg: 'Gross mass (kg)',
  netMassKg: 'Net mass (kg)',
  value: 'Value',
  currency: 'Currency',
  handlingUnits: 'Handling units',
  sscc: 'SSCC',
  reference: 'Reference',
  toLocation: 'To location',
  handlingUnitId: 'Handling unit',
  reason: 'Reason',
  version: 'Version',
};

/**
 * A stock record by what names it, as it has no number of its own: its SKU and the receipt it came
 * with ("ACM-CBL-USBC-1M · R-2026-000006"): the tab titles of its screens, never its id.
 */
export function stockRecordName(record: { sku: string; receipt: { number: string } }): string {
  return `${record.sku} · ${record.receipt.number}`;
}
