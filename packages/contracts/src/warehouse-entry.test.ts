import { describe, expect, it } from 'vitest';
import { shipmentProcedureProblem } from './shipments.ts';
import { makeMrn } from './validators/mrn.ts';
import {
  type EntryDeclarationFacts,
  outboundProcedureProblem,
  outboundProceduresFor,
  previousDocumentTypeOf,
  receiptEntryProblems,
} from './warehouse-values.ts';

describe('the procedures goods leave the warehouse by (issue 23 item 11)', () => {
  it('offers a shipment the procedures its goods fit: 4000/3100 for temporary storage, none for both', () => {
    expect(outboundProceduresFor(['temporary_storage'])).toEqual(['4000', '3100']);
    expect(outboundProceduresFor(['union', 'non_union_customs_warehousing'])).toEqual(['4071', '3171']);
    expect(outboundProceduresFor(['temporary_storage', 'non_union_customs_warehousing'])).toEqual([]);
    for (const p of outboundProceduresFor(['temporary_storage']))
      expect(shipmentProcedureProblem(p, ['temporary_storage'])).toBeNull();
  });

  it('refuses 4071 and 3171 for temporary storage, which is no customs warehousing', () => {
    expect(outboundProcedureProblem('temporary_storage', '4071')).toMatch(/^Goods in temporary storage/);
    expect(outboundProcedureProblem('temporary_storage', '3171')).toMatch(/presumes/);
    expect(outboundProcedureProblem('temporary_storage', '4000')).toBeUndefined();
    expect(outboundProcedureProblem('temporary_storage', '7100')).toBeUndefined();
    expect(outboundProcedureProblem('temporary_storage', '3100')).toBeUndefined();
    expect(outboundProcedureProblem('temporary_storage', '1000')).toBeDefined();
    expect(previousDocumentTypeOf('temporary_storage')).toBe('N337');
  });

  it('wants a procedure that discharges 71 for goods under customs warehousing', () => {
    for (const code of ['4071', '3171', '5171', '7171'])
      expect(outboundProcedureProblem('non_union_customs_warehousing', code)).toBeUndefined();
    expect(outboundProcedureProblem('non_union_customs_warehousing', '4000')).toMatch(
      /previous procedure 71/,
    );
    expect(outboundProcedureProblem('non_union_customs_warehousing', '1071')).toBeDefined();
    expect(outboundProcedureProblem('union', '4071')).toMatch(/Union goods/);
    expect(outboundProcedureProblem('union', '1000')).toBeUndefined();
    expect(previousDocumentTypeOf('non_union_customs_warehousing')).toBe('MRN');
  });
});

describe("a shipment's outbound procedure fits the non-Union goods it holds (issue 23 item 11)", () => {
  it('judges each non-Union status by the one rule, never the Union goods beside them', () => {
    expect(shipmentProcedureProblem('4071', ['union', 'temporary_storage'])).toBe(
      outboundProcedureProblem('temporary_storage', '4071'),
    );
    expect(shipmentProcedureProblem('3171', ['non_union_customs_warehousing', 'temporary_storage'])).toMatch(
      /which 3171 presumes/,
    );
    expect(shipmentProcedureProblem('4071', ['union', 'non_union_customs_warehousing'])).toBeNull();
    expect(shipmentProcedureProblem('4071', ['union'])).toBeNull();
    expect(shipmentProcedureProblem(null, ['temporary_storage'])).toBeNull();
  });
});

describe('a receipt names a real entry (issue 23 item 10)', () => {
  const owner = 'owner-1';
  const mrn = makeMrn({ year: 26, country: 'NL', serial: '000000000042', letter: 'R' });
  const h2: EntryDeclarationFacts = {
    id: 'd1',
    lrn: 'LRN-1',
    mrn,
    customerId: owner,
    type: 'import',
    category: 'H2',
    status: 'released',
  };
  const cw = { ownerId: owner, customsStatus: 'non_union_customs_warehousing' as const };

  it('takes the owner’s released H2, by id or by MRN', () => {
    expect(receiptEntryProblems({ ...cw, entryDeclarationId: 'd1' }, h2)).toEqual([]);
    expect(receiptEntryProblems({ ...cw, inboundMrn: mrn }, h2)).toEqual([]);
  });

  it('refuses an H1, an unreleased H2 and another owner’s, with the reason', () => {
    expect(receiptEntryProblems({ ...cw, inboundMrn: mrn }, { ...h2, category: 'H1' })[0]?.message).toMatch(
      /LRN-1 is a release for free circulation \(H1\)/,
    );
    expect(
      receiptEntryProblems({ ...cw, inboundMrn: mrn }, { ...h2, status: 'accepted' })[0]?.message,
    ).toMatch(/LRN-1 is accepted/);
    expect(
      receiptEntryProblems(
        { ...cw, inboundMrn: mrn, inboundMrnExternal: true },
        { ...h2, customerId: 'x' },
      )[0]?.field,
    ).toBe('inboundMrn');
  });

  it('takes an unknown MRN only marked external, and of an import', () => {
    expect(receiptEntryProblems({ ...cw, inboundMrn: mrn }, null)[0]?.message).toMatch(
      /mark the MRN as external/,
    );
    expect(receiptEntryProblems({ ...cw, inboundMrn: mrn, inboundMrnExternal: true }, null)).toEqual([]);
    const exportMrn = makeMrn({ year: 26, country: 'NL', serial: '000000000042', letter: 'A' });
    expect(
      receiptEntryProblems({ ...cw, inboundMrn: exportMrn, inboundMrnExternal: true }, null),
    ).toHaveLength(1);
    expect(receiptEntryProblems({ ...cw }, null).map((p) => p.field)).toEqual(['inboundMrn']);
    // Union goods and temporary storage are not judged by it.
    expect(
      receiptEntryProblems({ ownerId: owner, customsStatus: 'temporary_storage', inboundMrn: mrn }, null),
    ).toEqual([]);
  });
});
