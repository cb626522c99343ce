import {
  type HandlingUnitKind,
  locationParts,
  OUTBOUND_DECLARATION,
  type OutboundProcedure,
  previousDocumentTypeOf,
} from '@fvg/contracts';
import type { AllocationRow, EntryData } from './shipments.repository.ts';

/** The declaration's kind of package of a handling unit (UN/ECE Rec. 21). */
const PACKAGE_KIND: Readonly<Record<HandlingUnitKind, string>> = { pallet: 'PX', carton: 'CT', item: 'PK' };

/** A decimal's share `q / of` with `scale` decimals, or null when it rounds to nothing. */
export function proRata(value: string | null, q: number, of: number, scale: number): string | null {
  if (value === null || of <= 0) return null;
  const f = 10 ** scale;
  const n = Math.round((Number(value) * q * f) / of) / f;
  return n > 0 ? n.toFixed(scale) : null;
}

/** The item of the entry declaration a stock record came in under: its position, else its commodity code. */
function entryItemOf(entry: EntryData | undefined, a: AllocationRow) {
  if (!entry) return undefined;
  const code = a.commodity_code;
  return (
    entry.items.find((i) => i.position === a.line_no && (!code || i.commodity_code === code)) ??
    entry.items.find((i) => code && i.commodity_code === code)
  );
}

/**
 * The outbound declaration's draft as the stock and its entry already know it (issue 23 item 12): one
 * item per stock record taken, with its share of the record's masses, value and packages (its root
 * units when it has some, with their kind), its commodity code, origin and the entry's MRN as previous
 * document; from the entry's item its customs and statistical value (pro rata), preference, rates and
 * supporting documents; from the entry's header (one entry) the office, dispatch country, terms and
 * exchange rate. Not validated here: the declarations' own schema and rules are.
 */
export function outboundDeclarationDraft(
  shipment: { id: string; owner_id: string; outbound_procedure: OutboundProcedure },
  allocations: AllocationRow[],
  entries: EntryData[],
) {
  const proc = shipment.outbound_procedure;
  const { type, category } = OUTBOUND_DECLARATION[proc];
  const entryById = new Map(entries.map((e) => [e.id, e]));
  const byRecord = new Map<string, { a: AllocationRow; q: number; units: Set<string>; kinds: Set<string> }>();
  for (const a of allocations) {
    const e = byRecord.get(a.stock_record_id) ?? {
      a,
      q: 0,
      units: new Set<string>(),
      kinds: new Set<string>(),
    };
    e.q += a.quantity;
    if (a.handling_unit_id && a.unit_kind) {
      e.units.add(a.handling_unit_id);
      e.kinds.add(PACKAGE_KIND[a.unit_kind]);
    }
    byRecord.set(a.stock_record_id, e);
  }
  const currencies = new Set(allocations.map((a) => a.currency).filter(Boolean));
  const currency = currencies.size === 1 ? ([...currencies][0] as string) : null;
  const items = [...byRecord.values()].map(({ a, q, units, kinds }) => {
    const entry = a.entry_declaration_id ? entryById.get(a.entry_declaration_id) : undefined;
    const it = entryItemOf(entry, a);
    const mrn = a.inbound_mrn ?? entry?.mrn ?? null;
    const packages = units.size
      ? units.size
      : a.packages
        ? Math.max(1, Math.round((a.packages * q) / a.quantity_received))
        : null;
    return {
      commodityCode: a.commodity_code ?? it?.commodity_code ?? null,
      description: a.description,
      countryOfOrigin: a.country_of_origin ?? it?.country_of_origin ?? null,
      procedureCode: proc,
      // DE 1/11: no additional procedure unless the clerk names one.
      additionalProcedureCodes: ['000'],
      // DE 6/2: the share of the entry item's supplementary units.
      supplementaryUnits: proRata(it?.supplementary_units ?? null, q, a.quantity_received, 3),
      packages,
      packageKind: kinds.size === 1 ? [...kinds][0] : (it?.package_kind ?? null),
      grossMassKg: proRata(a.gross_mass_kg, q, a.quantity_received, 3),
      netMassKg: proRata(a.net_mass_kg, q, a.quantity_received, 3),
      invoiceValue: currency ? proRata(a.value, q, a.quantity_received, 2) : null,
      customsValue: proRata(it?.customs_value ?? null, q, a.quantity_received, 2),
      statisticalValue: proRata(it?.statistical_value ?? null, q, a.quantity_received, 2),
      ...(type === 'import'
        ? {
            preference: it?.preference ?? null,
            // The entry's valuation method (DE 4/16); the transaction value when it named none.
            valuationMethod: it?.valuation_method ?? '1',
            valuationReason: it?.valuation_reason ?? null,
            dutyRate: it?.duty_rate ?? null,
            vatRate: it?.vat_rate ?? null,
          }
        : {}),
      supportingDocuments: it?.supporting_documents ?? [],
      // Temporary-storage stock is cited as its temporary storage declaration (N337), else the entry's MRN.
      previousDocuments: mrn ? [{ type: previousDocumentTypeOf(a.customs_status), reference: mrn }] : [],
    };
  });
  const invoiceTotal =
    currency && items.length && items.every((i) => i.invoiceValue)
      ? items.reduce((s, i) => s + Math.round(Number(i.invoiceValue) * 100), 0) / 100
      : null;
  const entryIds = new Set(allocations.map((a) => a.entry_declaration_id).filter(Boolean));
  const entry = entryIds.size === 1 ? entryById.get([...entryIds][0] as string) : undefined;
  const first = allocations[0];
  return {
    type,
    category,
    customerId: shipment.owner_id,
    shipmentId: shipment.id,
    warehouseReference: first ? locationParts(first.location).warehouse : null,
    currency,
    invoiceTotal: invoiceTotal === null ? null : invoiceTotal.toFixed(2),
    ...(entry
      ? {
          officeOfLodgement: entry.office_of_lodgement,
          ...(type === 'import'
            ? {
                countryOfDispatch: entry.country_of_dispatch,
                incoterm: entry.incoterm,
                incotermPlace: entry.incoterm_place,
                natureOfTransaction: entry.nature_of_transaction,
                ...(entry.consignor ? { consignor: entry.consignor } : {}),
              }
            : {}),
        }
      : {}),
    items,
  };
}
