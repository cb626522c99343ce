import { describe, expect, it } from 'vitest';
import { consumeFifo, type FifoCandidate, planFifo } from './warehouse-fifo.ts';

const loose = (id: string, receivedOn: string, available: number): FifoCandidate => ({
  id,
  receivedOn,
  available,
  units: [],
});

describe('planFifo', () => {
  it('takes the oldest receipt first, whatever order the candidates come in', () => {
    const plan = planFifo([loose('b', '2026-03-01', 50), loose('a', '2026-01-15', 30)], 40);
    expect(plan).toEqual({
      takes: [
        { stockRecordId: 'a', handlingUnitId: null, quantity: 30 },
        { stockRecordId: 'b', handlingUnitId: null, quantity: 10 },
      ],
      short: 0,
    });
  });

  it('breaks a tie of received dates by id', () => {
    const plan = planFifo([loose('y', '2026-01-01', 5), loose('x', '2026-01-01', 5)], 7);
    expect(plan.takes.map((t) => [t.stockRecordId, t.quantity])).toEqual([
      ['x', 5],
      ['y', 2],
    ]);
  });

  it('takes root units by position, skipping what is already reserved', () => {
    const rec: FifoCandidate = {
      id: 'r',
      receivedOn: '2026-02-02',
      available: 25,
      units: [
        { id: 'p3', available: 10, position: 3 },
        { id: 'p1', available: 0, position: 1 },
        { id: 'p2', available: 15, position: 2 },
      ],
    };
    expect(planFifo([rec], 20).takes).toEqual([
      { stockRecordId: 'r', handlingUnitId: 'p2', quantity: 15 },
      { stockRecordId: 'r', handlingUnitId: 'p3', quantity: 5 },
    ]);
  });

  it('lets same-SKU lines consume in turn', () => {
    const cands = [loose('a', '2026-01-01', 10), loose('b', '2026-02-01', 10)];
    const first = planFifo(cands, 8);
    const second = planFifo(consumeFifo(cands, first.takes), 8);
    expect(second.takes).toEqual([
      { stockRecordId: 'a', handlingUnitId: null, quantity: 2 },
      { stockRecordId: 'b', handlingUnitId: null, quantity: 6 },
    ]);
    expect(second.short).toBe(0);
  });

  it('says how much is short and never takes more than is available', () => {
    const plan = planFifo([loose('a', '2026-01-01', 3), loose('b', '2026-01-02', 0)], 10);
    expect(plan.takes).toEqual([{ stockRecordId: 'a', handlingUnitId: null, quantity: 3 }]);
    expect(plan.short).toBe(7);
    expect(planFifo([], 4)).toEqual({ takes: [], short: 4 });
  });
});
