import type { LodgingInput } from '@fvg/contracts';
import { describe, expect, it } from 'vitest';
import { amendmentRefusal, authorityProblems, cancellationRefusal, SANDBOX_RULES } from './sandbox-rules.ts';
import { content } from './test-support.ts';

const CATEGORY = { import: 'H1', export: 'B1', transit: 'T1' } as const;

/** A complete declaration of `type` (what lodging accepts), changed by `over`. */
function view(type: 'import' | 'export' | 'transit', over: Partial<LodgingInput> = {}): LodgingInput {
  return { category: CATEGORY[type], ...(content(type, 'c') as unknown as LodgingInput), ...over };
}

const codes = (v: LodgingInput) => authorityProblems(v).map((r) => `${r.code} ${r.field}`);

/**
 * The sandbox cites the shared pre-lodging rule function's problems under its own stable numbers
 * (ADR 0047): the API refuses these before lodging, so the sandbox meets them only when the content
 * changed between the check and its answer.
 */
describe('sandbox authority rules', () => {
  it('accepts a sound import, export and transit', () => {
    expect(codes(view('import'))).toEqual([]);
    expect(codes(view('export'))).toEqual([]);
    expect(codes(view('transit'))).toEqual([]);
  });

  it('refuses offices outside the Union with the office in the text and the field path', () => {
    expect(
      authorityProblems(view('import', { officeOfLodgement: 'US000123', officeOfExitEntry: 'CN000001' })),
    ).toEqual([
      {
        code: 'SBX-R101',
        text: 'Office of lodgement US000123 is not a customs office of the Union (UCC art. 159)',
        field: 'officeOfLodgement',
      },
      {
        code: 'SBX-R102',
        text: 'Office of entry CN000001 is not a customs office of the Union (UCC art. 127)',
        field: 'officeOfExitEntry',
      },
    ]);
    // Northern Ireland's offices (XI) are Union offices for customs.
    expect(codes(view('import', { officeOfLodgement: 'XI000142', officeOfExitEntry: null }))).toEqual([]);
  });

  it('checks transit offices against the common transit countries', () => {
    expect(
      codes(view('transit', { officeOfDestination: 'CN000001', officesOfTransit: ['CH000001', 'RU000002'] })),
    ).toEqual(['SBX-R103 officeOfDestination', 'SBX-R104 officesOfTransit.1']);
  });

  it('wants EORIs issued in the Union', () => {
    expect(
      codes(
        view('import', {
          declarant: { name: 'X', countryCode: 'GB', eori: 'GB123456789000' },
          representativeStatus: '2',
          representative: { name: 'Y', countryCode: 'US', eori: 'US12345' },
        }),
      ),
    ).toEqual(['SBX-R201 declarant.eori', 'SBX-R202 representative.eori']);
    expect(
      codes(view('import', { declarant: { name: 'X', countryCode: 'GB', eori: 'XI123456789000' } })),
    ).toEqual([]);
  });

  it('knows where exports and imports come from and go to', () => {
    expect(codes(view('export', { countryOfDispatch: 'US', countryOfDestination: 'DE' }))).toEqual([
      'SBX-R301 countryOfDestination',
      'SBX-R302 countryOfDispatch',
    ]);
    expect(codes(view('export', { countryOfDestination: 'MC' }))).toEqual(['SBX-R301 countryOfDestination']);
    expect(codes(view('import', { countryOfDispatch: 'NL' }))).toEqual(['SBX-R303 countryOfDispatch']);
  });

  it('refuses a chapter the Harmonized System does not have', () => {
    const [item] = view('import').items;
    const items = [
      { ...item, commodityCode: '77010000', invoiceValue: '600.00' },
      { ...item, commodityCode: '98010000', invoiceValue: '400.00' },
    ];
    expect(codes(view('import', { items }))).toEqual([
      'SBX-R304 items.0.commodityCode',
      'SBX-R304 items.1.commodityCode',
    ]);
  });

  it('matches the invoice total to the items to the cent', () => {
    expect(codes(view('import', { invoiceTotal: '1000.00' }))).toEqual([]);
    expect(authorityProblems(view('import', { invoiceTotal: '1000.01' }))).toEqual([
      {
        code: 'SBX-R305',
        text: "Invoice total 1,000.01 EUR differs from the sum of the items' invoice values, 1,000.00 EUR (Annex B, DE 4/11 and 4/14)",
        field: 'invoiceTotal',
      },
    ]);
  });

  it('holds a transit guarantee to the duties at stake (no floor) and a type 5 waiver to its ceiling', () => {
    const transit = (guaranteeType: string, guaranteeAmount: string, value?: string) => {
      const v = view('transit', { guaranteeType, guaranteeAmount, guaranteeReference: null });
      const items = value ? v.items.map((i) => ({ ...i, customsValue: value })) : v.items;
      return codes({ ...v, items });
    };
    // The item's 3 000.00 EUR at 2.7 % duty and 21 % VAT: 728.01 EUR at stake.
    expect(transit('1', '728.00')).toEqual(['SBX-R900 guaranteeReference', 'SBX-R309 guaranteeAmount']);
    expect(codes(view('transit', { guaranteeAmount: '728.01' }))).toEqual([]);
    // Goods of 100.00 EUR: 24.27 at stake, a guarantee of 30.00 is enough (the old 1 000.00 floor is gone).
    expect(codes(view('transit', { guaranteeAmount: '30.00' }))).toEqual(['SBX-R309 guaranteeAmount']);
    expect(transit('3', '30.00', '100.00')).toEqual([]);
    expect(transit('5', '500.00', '100.00')).toEqual([]);
    expect(transit('5', '500.01', '100.00')).toEqual(['SBX-R307 guaranteeAmount']);
    // 728.01 at stake: more than a type 5 waiver may leave unsecured.
    expect(transit('5', '100.00')).toEqual(['SBX-R307 guaranteeType']);
    expect(transit('8', '10.00')).toEqual([]);
  });

  it('wants an export MRN as the N830 previous document of a transit', () => {
    const [item] = view('transit').items;
    const items = [
      {
        ...item,
        previousDocuments: [
          { type: 'N380', reference: 'INV-1' },
          { type: 'N830', reference: '22ITZXBZYUTJFLJXK6' },
        ],
      },
    ];
    const rules = authorityProblems(view('transit', { items })).filter((r) => r.code === 'SBX-R308');
    expect(rules.map((r) => r.field)).toEqual(['items.0.previousDocuments.1.reference']);
  });

  it('cites what has no number of its own as the completeness rule', () => {
    expect(codes(view('import', { officeOfLodgement: null }))).toEqual(['SBX-R900 officeOfLodgement']);
  });

  it('answers requests by the status they meet', () => {
    expect(amendmentRefusal('accepted')).toBeUndefined();
    expect(amendmentRefusal('under_control')?.code).toBe('SBX-R401');
    expect(amendmentRefusal('released')?.code).toBe('SBX-R402');
    expect(amendmentRefusal('cancelled')?.code).toBe('SBX-R403');
    expect(cancellationRefusal('import', 'accepted')).toBeUndefined();
    // No invalidation once a control is announced (UCC art. 174(1)), as no amendment.
    expect(cancellationRefusal('import', 'under_control')?.code).toBe('SBX-R407');
    expect(cancellationRefusal('import', 'released')?.code).toBe('SBX-R404');
    expect(cancellationRefusal('export', 'released')).toBeUndefined();
    expect(cancellationRefusal('export', 'exited')?.code).toBe('SBX-R405');
    expect(cancellationRefusal('transit', 'arrived')?.code).toBe('SBX-R406');
    expect(cancellationRefusal('transit', 'rejected')?.code).toBe('SBX-R403');
  });

  it('documents every code it cites', () => {
    const cited = authorityProblems(
      view('import', {
        officeOfLodgement: 'US000001',
        officeOfExitEntry: 'US000002',
        declarant: { name: 'X', countryCode: 'US', eori: 'US1' },
        countryOfDispatch: 'US',
        invoiceTotal: '1.00',
      }),
    ).map((r) => r.code);
    expect(cited.length).toBeGreaterThan(3);
    for (const code of cited) expect(Object.keys(SANDBOX_RULES)).toContain(code);
  });
});
