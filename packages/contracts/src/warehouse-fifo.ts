/**
 * First-in first-out planning of a shipment line (issue 13, ADR 0035): pure, so the API's release and
 * the tests share one rule. Oldest received first (ties: id), within a record its root units by
 * position (a record without units is taken loose); never more than is available. Same-SKU lines
 * consume in turn: the caller lowers `available` by what earlier lines took (`consume`).
 */

export interface FifoCandidate {
  id: string;
  /** `YYYY-MM-DD`: compares as text. */
  receivedOn: string;
  available: number;
  /** Root handling units with what is available in each; [] = the record's goods are loose. */
  units: { id: string; available: number; position: number }[];
}

export interface FifoTake {
  stockRecordId: string;
  handlingUnitId: string | null;
  quantity: number;
}

export function compareFifo(a: FifoCandidate, b: FifoCandidate): number {
  if (a.receivedOn !== b.receivedOn) return a.receivedOn < b.receivedOn ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export function planFifo(
  candidates: readonly FifoCandidate[],
  quantity: number,
): { takes: FifoTake[]; short: number } {
  const takes: FifoTake[] = [];
  let left = quantity;
  for (const c of [...candidates].sort(compareFifo)) {
    if (left <= 0) break;
    let fromRecord = Math.min(left, Math.max(0, c.available));
    if (fromRecord === 0) continue;
    if (c.units.length === 0) {
      takes.push({ stockRecordId: c.id, handlingUnitId: null, quantity: fromRecord });
      left -= fromRecord;
      continue;
    }
    for (const u of [...c.units].sort((x, y) => x.position - y.position)) {
      if (fromRecord <= 0) break;
      const q = Math.min(fromRecord, Math.max(0, u.available));
      if (q === 0) continue;
      takes.push({ stockRecordId: c.id, handlingUnitId: u.id, quantity: q });
      fromRecord -= q;
      left -= q;
    }
  }
  return { takes, short: Math.max(0, left) };
}

/** The candidates after `takes`: what a following line of the same SKU may still take. */
export function consumeFifo(
  candidates: readonly FifoCandidate[],
  takes: readonly FifoTake[],
): FifoCandidate[] {
  return candidates.map((c) => {
    const mine = takes.filter((t) => t.stockRecordId === c.id);
    if (mine.length === 0) return c;
    const taken = mine.reduce((s, t) => s + t.quantity, 0);
    return {
      ...c,
      available: c.available - taken,
      units: c.units.map((u) => ({
        ...u,
        available:
          u.available - mine.filter((t) => t.handlingUnitId === u.id).reduce((s, t) => s + t.quantity, 0),
      })),
    };
  });
}
