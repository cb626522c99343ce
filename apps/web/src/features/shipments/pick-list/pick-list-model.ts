import { compareLocations, quantityWithUnit, type Shipment, type StockUnit } from '@fvg/contracts';
import { formatNumber } from '../../../lib/format.ts';

/** One row of the pick list: a place to go to, what to take there and how much. */
export interface PickRow {
  key: string;
  lineNo: number;
  location: string | null;
  sku: string;
  description: string;
  /** Null while a draft's SKU matches no stock yet. */
  unit: StockUnit | null;
  sscc: string | null;
  /** A carton or item taken by reference (no SSCC), or null for loose goods. */
  reference: string | null;
  quantity: number;
  picked: boolean;
  receiptNumber: string | null;
}

/**
 * The picks in walking order. A released shipment picks its allocations (freed ones are not picks)
 * sorted by location the way the aisles run (`compareLocations`), then SKU; a draft has no
 * allocations yet, so its lines are listed as ordered, without a place.
 */
export function pickRows(shipment: Pick<Shipment, 'status' | 'lines'>): PickRow[] {
  const rows: PickRow[] = [];
  for (const line of shipment.lines) {
    const live = line.allocations.filter((a) => a.state !== 'freed');
    if (shipment.status === 'draft' || live.length === 0) {
      if (shipment.status !== 'draft') continue;
      rows.push({
        key: line.id,
        lineNo: line.position,
        location: null,
        sku: line.sku,
        description: line.description ?? '',
        unit: line.unit,
        sscc: null,
        reference: null,
        quantity: line.quantity,
        picked: false,
        receiptNumber: null,
      });
      continue;
    }
    for (const a of live) {
      rows.push({
        key: a.id,
        lineNo: line.position,
        location: a.location,
        sku: line.sku,
        description: line.description ?? '',
        unit: line.unit,
        sscc: a.handlingUnit?.sscc ?? null,
        reference: a.handlingUnit && !a.handlingUnit.sscc ? a.handlingUnit.reference : null,
        quantity: a.quantity,
        picked: a.state === 'picked',
        receiptNumber: a.receiptNumber,
      });
    }
  }
  if (shipment.status === 'draft') return rows;
  return rows.sort(
    (a, b) =>
      compareLocations(a.location ?? '', b.location ?? '') ||
      a.sku.localeCompare(b.sku) ||
      (a.sscc ?? '').localeCompare(b.sscc ?? '') ||
      a.lineNo - b.lineNo,
  );
}

/** "40 pieces", or the bare number when the unit is not known. */
export function pickQuantity(quantity: number, unit: StockUnit | null): string {
  return unit ? quantityWithUnit(formatNumber(quantity), unit) : formatNumber(quantity);
}

export interface PackingSummary {
  /** "60 pieces · 4 cartons": one total per unit of measure, never added across units. */
  total: string;
  /** Handling units taken whole or in part (pallets, cartons by SSCC or reference). */
  handlingUnits: number;
  /** Picks of loose goods (no handling unit). */
  loosePicks: number;
}

export function packingSummary(rows: readonly PickRow[]): PackingSummary {
  const byUnit = new Map<StockUnit | null, number>();
  for (const r of rows) byUnit.set(r.unit, (byUnit.get(r.unit) ?? 0) + r.quantity);
  const units = new Set(rows.filter((r) => r.sscc || r.reference).map((r) => r.sscc ?? r.reference));
  return {
    total: [...byUnit].map(([unit, q]) => pickQuantity(q, unit)).join(' · ') || '—',
    handlingUnits: units.size,
    loosePicks: rows.filter((r) => r.location !== null && !r.sscc && !r.reference).length,
  };
}
