import {
  ADDITION_FIELDS,
  type Apportionment,
  amendmentProblem,
  CBAM_PREFIXES,
  CBAM_RELEASE_PROCEDURES,
  type CustomsStatus,
  type CustomsTransportMode,
  cbamCategoryOf,
  cbamWithoutDeMinimis,
  DEDUCTION_FIELDS,
  type Declaration,
  type DeclarationAction,
  type DeclarationAdditionalInformation,
  type DeclarationAuthorisation,
  type DeclarationCategory,
  type DeclarationDocumentRef,
  type DeclarationItem,
  type DeclarationItemParsed,
  type DeclarationListItem,
  type DeclarationListQuery,
  type DeclarationMessage,
  type DeclarationMessageKind,
  type DeclarationParty,
  type DeclarationRequest,
  type DeclarationRule,
  type DeclarationSeal,
  type DeclarationStatus,
  type DeclarationType,
  type DeclarationUpdateInputWithoutVersion,
  declarationFieldVisibility,
  declarationTotals,
  type GuaranteeType,
  isCancellable,
  itemEstimate,
  type LocationQualifier,
  type LocationType,
  type LodgingContext,
  type MethodOfPayment,
  type RepresentativeStatus,
  SANDBOX_LABEL,
  type ValuationMethod,
} from '@fvg/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { defineListSpec, escapeLike, filter, type ListSource, listReader } from '../../records/list.ts';
import type { Scope } from '../../records/scope.ts';
import { dayStart } from '../../records/time-zone.ts';
import { redact } from '../../records/visibility.ts';
import { customsMonthOf, customsRateOf } from '../company/customs-rates.ts';

/** The zone whose calendar days the list's `from`/`to` mean: the company's (the forwarder is Dutch). */
const COMPANY_TIME_ZONE = 'Europe/Amsterdam';

export interface DeclarationRow {
  id: string;
  type: DeclarationType;
  category: DeclarationCategory;
  status: DeclarationStatus;
  lrn: string;
  mrn: string | null;
  gateway: string;
  dossier_id: string | null;
  dossier_number: string | null;
  shipment_id: string | null;
  shipment_number: string | null;
  customer_id: string;
  customer_code: string;
  customer_name: string;
  declarant: DeclarationParty | null;
  representative: DeclarationParty | null;
  consignor: DeclarationParty | null;
  consignee: DeclarationParty | null;
  holder: DeclarationParty | null;
  representative_status: RepresentativeStatus | null;
  office_of_lodgement: string | null;
  office_of_exit_entry: string | null;
  office_of_destination: string | null;
  offices_of_transit: string[];
  country_of_dispatch: string | null;
  country_of_destination: string | null;
  transport_mode_border: CustomsTransportMode | null;
  transport_mode_inland: CustomsTransportMode | null;
  means_at_departure: string | null;
  means_at_departure_country: string | null;
  means_at_border: string | null;
  means_at_border_country: string | null;
  container_indicator: boolean;
  incoterm: string | null;
  incoterm_place: string | null;
  nature_of_transaction: string | null;
  currency: string | null;
  invoice_total: string | null;
  exchange_rate: string | null;
  location_of_goods: string | null;
  location_of_goods_type: LocationType | null;
  location_of_goods_qualifier: LocationQualifier | null;
  warehouse_reference: string | null;
  authorisations: DeclarationAuthorisation[];
  additional_information: DeclarationAdditionalInformation[];
  seals: DeclarationSeal[];
  limit_date: string | null;
  guarantee_type: GuaranteeType | null;
  guarantee_reference: string | null;
  guarantee_amount: string | null;
  addition_transport_insurance: string | null;
  addition_commissions: string | null;
  addition_packing: string | null;
  deduction_transport_after_entry: string | null;
  deduction_duties: string | null;
  apportionment: Apportionment | null;
  method_of_payment: MethodOfPayment | null;
  notes: string | null;
  packages: number;
  gross_mass_kg: string;
  customs_value: string;
  duty: string | null;
  vat: string | null;
  duty_and_vat: string | null;
  pending_request: DeclarationRequest | null;
  pending_amendment: unknown;
  rejection: DeclarationRule[];
  last_message_kind: DeclarationMessageKind | null;
  last_message_at: Date | null;
  lodged_at: Date | null;
  accepted_at: Date | null;
  released_at: Date | null;
  exited_at: Date | null;
  arrived_at: Date | null;
  discharged_at: Date | null;
  version: number;
  created_at: Date;
  created_by: string | null;
  created_by_name: string | null;
  updated_at: Date;
}

/**
 * API header field → column, for every content field a draft edit or an accepted amendment writes.
 * The history records API names; parties are jsonb, the offices of transit a text array.
 */
export const HEADER_COLUMNS = {
  declarant: 'declarant',
  representative: 'representative',
  representativeStatus: 'representative_status',
  consignor: 'consignor',
  consignee: 'consignee',
  holder: 'holder',
  officeOfLodgement: 'office_of_lodgement',
  officeOfExitEntry: 'office_of_exit_entry',
  officeOfDestination: 'office_of_destination',
  officesOfTransit: 'offices_of_transit',
  countryOfDispatch: 'country_of_dispatch',
  countryOfDestination: 'country_of_destination',
  transportModeBorder: 'transport_mode_border',
  transportModeInland: 'transport_mode_inland',
  meansAtDeparture: 'means_at_departure',
  meansAtDepartureCountry: 'means_at_departure_country',
  meansAtBorder: 'means_at_border',
  meansAtBorderCountry: 'means_at_border_country',
  containerIndicator: 'container_indicator',
  incoterm: 'incoterm',
  incotermPlace: 'incoterm_place',
  natureOfTransaction: 'nature_of_transaction',
  currency: 'currency',
  invoiceTotal: 'invoice_total',
  exchangeRate: 'exchange_rate',
  locationOfGoods: 'location_of_goods',
  locationOfGoodsType: 'location_of_goods_type',
  locationOfGoodsQualifier: 'location_of_goods_qualifier',
  warehouseReference: 'warehouse_reference',
  authorisations: 'authorisations',
  additionalInformation: 'additional_information',
  seals: 'seals',
  limitDate: 'limit_date',
  guaranteeType: 'guarantee_type',
  guaranteeReference: 'guarantee_reference',
  guaranteeAmount: 'guarantee_amount',
  methodOfPayment: 'method_of_payment',
  additionTransportInsurance: 'addition_transport_insurance',
  additionCommissions: 'addition_commissions',
  additionPacking: 'addition_packing',
  deductionTransportAfterEntry: 'deduction_transport_after_entry',
  deductionDuties: 'deduction_duties',
  apportionment: 'apportionment',
  notes: 'notes',
} as const;
export type HeaderField = keyof typeof HEADER_COLUMNS;
export const HEADER_FIELDS = Object.keys(HEADER_COLUMNS) as HeaderField[];
const PARTY_FIELDS = new Set<HeaderField>([
  'declarant',
  'representative',
  'consignor',
  'consignee',
  'holder',
]);
const ADJUSTMENT_FIELDS: HeaderField[] = [...ADDITION_FIELDS, ...DEDUCTION_FIELDS];
const DECIMAL_FIELDS = new Set<HeaderField>([
  'invoiceTotal',
  'exchangeRate',
  'guaranteeAmount',
  ...ADJUSTMENT_FIELDS,
]);
/** jsonb arrays: stored as sent (the contract normalised them), never null. */
const LIST_FIELDS = new Set<HeaderField>(['authorisations', 'additionalInformation', 'seals']);

/** A decimal string without the trailing zeros numeric columns carry (`21.000` → `21`), keeping `min` decimals. */
export function trimDecimal(d: string, min = 0): string {
  const [whole, frac = ''] = d.split('.');
  let f = frac.replace(/0+$/, '');
  if (f.length < min) f = f.padEnd(min, '0');
  return f ? `${whole}.${f}` : (whole as string);
}
const trimmed = (d: string | null, min = 0) => (d === null ? null : trimDecimal(d, min));

/** The header content of a row, by API field name (what the history compares and a copy takes). */
export function headerOf(r: DeclarationRow): Record<HeaderField, unknown> {
  const out = {} as Record<HeaderField, unknown>;
  for (const f of HEADER_FIELDS) {
    const v = (r as unknown as Record<string, unknown>)[HEADER_COLUMNS[f]];
    out[f] =
      DECIMAL_FIELDS.has(f) && typeof v === 'string' ? trimDecimal(v, f === 'exchangeRate' ? 0 : 2) : v;
  }
  // jsonb keeps an object's keys shortest first: the seals read back in the contract's key order, so
  // the history compares like with like (and the API answers as the contract writes).
  out.seals = r.seals.map((s) => ({ identifier: s.identifier, container: s.container }));
  return out;
}

/** Header input → column values: only the fields present in `input`. */
export function headerValues(input: Partial<Record<HeaderField, unknown>>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const f of HEADER_FIELDS) {
    if (!(f in input) || input[f] === undefined) continue;
    const v = input[f];
    if (PARTY_FIELDS.has(f)) values[HEADER_COLUMNS[f]] = v === null ? null : JSON.stringify(normalParty(v));
    else if (f === 'officesOfTransit') values[HEADER_COLUMNS[f]] = v ?? [];
    else if (LIST_FIELDS.has(f)) values[HEADER_COLUMNS[f]] = JSON.stringify(v ?? []);
    else if (f === 'containerIndicator') values[HEADER_COLUMNS[f]] = v ?? false;
    else values[HEADER_COLUMNS[f]] = v;
  }
  return values;
}

/** A party input as stored: every key present (null when not given), so reads need no defaults. */
export function normalParty(v: unknown): DeclarationParty {
  const p = v as Partial<DeclarationParty>;
  return {
    partyId: p.partyId ?? null,
    name: p.name ?? '',
    street: p.street ?? null,
    postalCode: p.postalCode ?? null,
    city: p.city ?? null,
    countryCode: p.countryCode ?? null,
    eori: p.eori ?? null,
  };
}

export const GATEWAYS: Readonly<Record<string, { label: string; sandbox: boolean }>> = {
  sandbox: { label: SANDBOX_LABEL, sandbox: true },
};
const gatewayOf = (name: string) => GATEWAYS[name] ?? { label: name, sandbox: false };

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toListItem(r: DeclarationRow): DeclarationListItem {
  return {
    id: r.id,
    type: r.type,
    category: r.category,
    status: r.status,
    lrn: r.lrn,
    mrn: r.mrn,
    dossier: r.dossier_id && r.dossier_number ? { id: r.dossier_id, number: r.dossier_number } : null,
    shipment: r.shipment_id && r.shipment_number ? { id: r.shipment_id, number: r.shipment_number } : null,
    customer: { id: r.customer_id, code: r.customer_code, name: r.customer_name },
    declarantName: r.declarant?.name ?? null,
    customsValue: r.customs_value,
    dutyAndVat: r.duty_and_vat,
    lastMessage:
      r.last_message_kind && r.last_message_at
        ? { kind: r.last_message_kind, at: r.last_message_at.toISOString() }
        : null,
    pendingRequest: r.pending_request,
    exitedAt: iso(r.exited_at),
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

/** What staff may do with a declaration now; customers nothing (read-only). */
export function allowedActions(scope: Scope, r: Pick<DeclarationRow, 'type' | 'status' | 'pending_request'>) {
  if (!scope.all) return [] as DeclarationAction[];
  if (r.status === 'draft') return ['edit', 'delete', 'lodge', 'copy'] as DeclarationAction[];
  const actions: DeclarationAction[] = [];
  if (!r.pending_request && amendmentProblem(r.status) === undefined) actions.push('amend');
  if (!r.pending_request && isCancellable(r.type, r.status)) actions.push('cancel');
  actions.push('copy');
  return actions;
}

interface ItemRow {
  id: string;
  position: number;
  commodity_code: string | null;
  description: string | null;
  country_of_origin: string | null;
  preference: string | null;
  procedure_code: string | null;
  additional_procedure_codes: string[];
  valuation_method: ValuationMethod | null;
  valuation_reason: string | null;
  supplementary_units: string | null;
  packages: number | null;
  package_kind: string | null;
  marks: string | null;
  gross_mass_kg: string | null;
  net_mass_kg: string | null;
  invoice_value: string | null;
  customs_value: string | null;
  statistical_value: string | null;
  duty_rate: string | null;
  vat_rate: string | null;
  vat_costs: string | null;
  containers: string[];
  supporting_documents: DeclarationDocumentRef[];
  previous_documents: DeclarationDocumentRef[];
}

function toItem(type: DeclarationType, r: ItemRow): DeclarationItem {
  const item = {
    id: r.id,
    position: r.position,
    commodityCode: r.commodity_code,
    description: r.description,
    countryOfOrigin: r.country_of_origin,
    preference: r.preference,
    procedureCode: r.procedure_code,
    additionalProcedureCodes: r.additional_procedure_codes,
    valuationMethod: r.valuation_method,
    valuationReason: r.valuation_reason,
    supplementaryUnits: trimmed(r.supplementary_units),
    packages: r.packages,
    packageKind: r.package_kind,
    marks: r.marks,
    grossMassKg: trimmed(r.gross_mass_kg),
    netMassKg: trimmed(r.net_mass_kg),
    invoiceValue: r.invoice_value,
    customsValue: r.customs_value,
    statisticalValue: r.statistical_value,
    dutyRate: trimmed(r.duty_rate),
    vatRate: trimmed(r.vat_rate),
    vatCosts: r.vat_costs,
    containers: r.containers,
    supportingDocuments: r.supporting_documents,
    previousDocuments: r.previous_documents,
  };
  return { ...item, estimate: estimateOf(type, item) };
}

/** Duty and import VAT of an item: import only (export and transit pay none here). */
function estimateOf(
  type: DeclarationType,
  i: {
    customsValue?: string | null;
    dutyRate?: string | null;
    vatRate?: string | null;
    vatCosts?: string | null;
  },
) {
  if (type !== 'import') return null;
  return itemEstimate({
    customsValue: i.customsValue ?? null,
    dutyRate: i.dutyRate ?? null,
    vatRate: i.vatRate ?? null,
    vatCosts: i.vatCosts ?? null,
  });
}

const FROM = sql`declarations x join parties c on c.id = x.customer_id left join dossiers d on d.id = x.dossier_id
  left join shipments sh on sh.id = x.shipment_id`;
const SELECT = sql`x.id, x.type, x.category, x.status, x.lrn, x.mrn, x.gateway, x.dossier_id, d.number as dossier_number,
  x.shipment_id, sh.number as shipment_number, x.customer_id, c.code as customer_code, c.name as customer_name, x.declarant, x.representative, x.consignor,
  x.consignee, x.holder, x.representative_status, x.office_of_lodgement, x.office_of_exit_entry,
  x.office_of_destination, x.offices_of_transit, x.country_of_dispatch, x.country_of_destination,
  x.transport_mode_border, x.transport_mode_inland, x.means_at_departure, x.means_at_departure_country,
  x.means_at_border, x.means_at_border_country, x.container_indicator, x.incoterm, x.incoterm_place,
  x.nature_of_transaction, x.currency, x.invoice_total::text, x.exchange_rate::text, x.location_of_goods,
  x.location_of_goods_type, x.location_of_goods_qualifier, x.authorisations, x.additional_information, x.seals,
  x.limit_date, x.warehouse_reference, x.guarantee_type, x.guarantee_reference, x.guarantee_amount::text, x.method_of_payment,
  x.addition_transport_insurance::text, x.addition_commissions::text, x.addition_packing::text,
  x.deduction_transport_after_entry::text, x.deduction_duties::text, x.apportionment, x.notes, x.packages,
  x.gross_mass_kg::text, x.customs_value::text, x.duty::text, x.vat::text, x.duty_and_vat::text,
  x.pending_request, x.pending_amendment, x.rejection, x.last_message_kind, x.last_message_at, x.lodged_at,
  x.accepted_at, x.released_at, x.exited_at, x.arrived_at, x.discharged_at, x.version, x.created_at,
  x.created_by, x.updated_at`;

export const declarationListSpec = defineListSpec({
  name: 'declarations',
  visibility: declarationFieldVisibility,
  from: FROM,
  id: { expr: 'x.id', type: 'uuid', nullable: false },
  sortable: {
    updatedAt: { expr: 'x.updated_at', type: 'timestamptz', nullable: false },
    createdAt: { expr: 'x.created_at', type: 'timestamptz', nullable: false },
    lrn: { expr: 'x.lrn', type: 'text', nullable: false },
    mrn: { expr: 'x.mrn', type: 'text', nullable: true },
    status: { expr: 'x.status', type: 'text', nullable: false },
    customsValue: { expr: 'x.customs_value', type: 'numeric', nullable: false },
  },
  defaultSort: '-updatedAt',
  // LRNs and MRNs by prefix first (btree text_pattern_ops); then any part of them or the customer.
  searchPrefix: (q) => {
    const p = `${escapeLike(q.toUpperCase())}%`;
    return sql`(x.lrn like ${p} or x.mrn like ${p})`;
  },
  search: sql`(x.lrn || ' ' || coalesce(x.mrn, '') || ' ' || c.name)`,
  searchFields: ['lrn', 'mrn', 'customer'],
  // The dossier join cannot change the count; the customer's can be searched (`q` reads its name).
  countFrom: sql`declarations x join parties c on c.id = x.customer_id`,
});

/** A customer sees their own party's declarations once lodged; drafts are the forwarder's work. */
function scopeWhere(scope: Scope): RawBuilder<unknown>[] {
  return scope.all ? [] : [sql`x.customer_id = ${scope.partyId}`, sql`x.status <> 'draft'`];
}

/** The list's filters, sort and search, without paging (exports take all). */
export type DeclarationFilters = Omit<DeclarationListQuery, 'page' | 'pageSize' | 'cursor'>;

const declarationList: ListSource<DeclarationFilters, DeclarationRow, DeclarationListItem> = {
  spec: declarationListSpec,
  select: SELECT,
  scope: scopeWhere,
  filters: {
    type: filter.anyOf('x.type'),
    status: filter.anyOf('x.status'),
    dossierId: filter.equals('x.dossier_id'),
    customerId: filter.equals('x.customer_id'),
    reference: (reference) => {
      const p = `${escapeLike(reference.toUpperCase().replace(/\s+/g, ''))}%`;
      return sql`(x.lrn like ${p} or x.mrn like ${p})`;
    },
    from: (from) => sql`x.created_at >= ${dayStart(from, COMPANY_TIME_ZONE)}`,
    to: (to) => sql`x.created_at < ${dayStart(to, COMPANY_TIME_ZONE, 1)}`,
    pendingRequest: filter.yesNo(sql`x.pending_request is not null`, sql`x.pending_request is null`),
  },
  map: toListItem,
};

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The stored item values of an item input, with the estimate computed here (never sent by a client). */
export function storedItems(declarationId: string, type: DeclarationType, items: DeclarationItemParsed[]) {
  return items.map((i, n) => {
    const estimate = estimateOf(type, i);
    return {
      declaration_id: declarationId,
      position: n + 1,
      commodity_code: i.commodityCode ?? null,
      description: i.description ?? null,
      country_of_origin: i.countryOfOrigin ?? null,
      preference: i.preference ?? null,
      procedure_code: i.procedureCode ?? null,
      additional_procedure_codes: i.additionalProcedureCodes ?? [],
      valuation_method: i.valuationMethod ?? null,
      valuation_reason: i.valuationReason ?? null,
      supplementary_units: i.supplementaryUnits ?? null,
      packages: i.packages ?? null,
      package_kind: i.packageKind ?? null,
      marks: i.marks ?? null,
      gross_mass_kg: i.grossMassKg ?? null,
      net_mass_kg: i.netMassKg ?? null,
      invoice_value: i.invoiceValue ?? null,
      customs_value: i.customsValue ?? null,
      statistical_value: i.statisticalValue ?? null,
      duty_rate: i.dutyRate ?? null,
      vat_rate: i.vatRate ?? null,
      vat_costs: i.vatCosts ?? null,
      containers: i.containers ?? [],
      supporting_documents: JSON.stringify(i.supportingDocuments ?? []),
      previous_documents: JSON.stringify(i.previousDocuments ?? []),
      duty: estimate?.duty ?? null,
      vat_base: estimate?.vatBase ?? null,
      vat: estimate?.vat ?? null,
    };
  });
}

async function readItems(db: Db, type: DeclarationType, declarationId: string): Promise<DeclarationItem[]> {
  const r = await sql<ItemRow>`
    select id, position, commodity_code, description, country_of_origin, preference, procedure_code,
      additional_procedure_codes, valuation_method, valuation_reason, supplementary_units::text, packages,
      package_kind, marks, gross_mass_kg::text, net_mass_kg::text, invoice_value::text, customs_value::text,
      statistical_value::text, duty_rate::text, vat_rate::text, vat_costs::text, containers,
      supporting_documents, previous_documents
    from declaration_items where declaration_id = ${declarationId} order by position`.execute(db);
  return r.rows.map((row) => toItem(type, row));
}

/** One declaration by id or LRN, within scope; `lock` takes its row lock for the transaction. */
export async function findDeclaration(
  db: Db,
  scope: Scope,
  idOrLrn: string,
  lock = false,
): Promise<DeclarationRow | undefined> {
  const byId = UUID_RE.test(idOrLrn);
  const r = await sql<DeclarationRow>`
    select ${SELECT}, u.name as created_by_name
    from ${FROM} left join users u on u.id = x.created_by
    where ${byId ? sql`x.id = ${idOrLrn}` : sql`x.lrn = ${idOrLrn.trim().toUpperCase()}`}
      ${sql.join([sql``, ...scopeWhere(scope)], sql` and `)}
    ${lock ? sql`for update of x` : sql``}`.execute(db);
  return r.rows[0];
}

/** The declaration as `scope` sees it (hidden fields null, actions of the viewer). */
export async function toDeclaration(db: Db, scope: Scope, r: DeclarationRow): Promise<Declaration> {
  const items = await readItems(db, r.type, r.id);
  const header = headerOf(r) as Record<string, unknown>;
  return redact(scope, declarationFieldVisibility, {
    ...toListItem(r),
    ...(header as Omit<
      Declaration,
      keyof DeclarationListItem | 'gateway' | 'items' | 'totals' | 'rejection' | 'version' | 'createdBy'
    >),
    gateway: gatewayOf(r.gateway),
    items,
    totals: declarationTotals(r.type, items),
    rejection: r.rejection,
    lodgedAt: iso(r.lodged_at),
    acceptedAt: iso(r.accepted_at),
    releasedAt: iso(r.released_at),
    exitedAt: iso(r.exited_at),
    arrivedAt: iso(r.arrived_at),
    dischargedAt: iso(r.discharged_at),
    version: r.version,
    createdBy: r.created_by && r.created_by_name ? { id: r.created_by, name: r.created_by_name } : null,
    allowedActions: allowedActions(scope, r),
  });
}

/** The declaration as the API answers it, unscoped (for jobs). */
export async function loadDeclaration(db: Db, id: string): Promise<Declaration | undefined> {
  const row = await findDeclaration(db, { all: true }, id);
  return row ? toDeclaration(db, { all: true }, row) : undefined;
}

/**
 * Writes header fields present in `input` and, when `input.items` is given, replaces the items
 * (recomputing estimates and the header totals); bumps version and updated_at. No status or version
 * check: callers hold the row lock.
 */
export async function writeDeclarationContent(
  trx: Db,
  id: string,
  input: DeclarationUpdateInputWithoutVersion,
  actorId: string | null = null,
): Promise<void> {
  const row = await trx.selectFrom('declarations').select(['type']).where('id', '=', id).executeTakeFirst();
  if (!row) throw new Error(`declaration ${id} does not exist`);
  const { items, lrn, category, ...header } = input;
  if (items) {
    await trx.deleteFrom('declaration_items').where('declaration_id', '=', id).execute();
    const values = storedItems(id, row.type, items);
    if (values.length) await trx.insertInto('declaration_items').values(values).execute();
  }
  const totals = await itemTotals(trx, row.type, id);
  await trx
    .updateTable('declarations')
    .set((eb) => ({
      ...(headerValues(header as Partial<Record<HeaderField, unknown>>) as object),
      ...(lrn ? { lrn } : {}),
      ...(category ? { category } : {}),
      ...totals,
      version: eb('version', '+', 1),
      updated_at: new Date(),
      ...(actorId ? { updated_by: actorId } : {}),
    }))
    .where('id', '=', id)
    .execute();
}

/** The header's totals columns from the stored items (the list sorts and shows them). */
/**
 * The customs status of the warehouse stock received under each MRN the items cite as previous
 * document (the rule function's `warehouseEntries`): goods taken from stock leave by the procedures
 * their status allows (issue 23 item 11).
 */
/**
 * What the lodging rules read besides the declaration (LodgingContext): the customs status of cited
 * warehouse stock, for an import the importer's goods under CBAM already declared this calendar year
 * (by the consignee's EORI; lodged and not rejected, cancelled or refused release) for the 50-tonne de
 * minimis threshold, and the company's customs exchange rate of the invoice currency for the month.
 */
export async function lodgingContextOf(db: Db, d: Declaration): Promise<LodgingContext> {
  const currency = d.currency?.trim().toUpperCase();
  // The rate of the month of acceptance: of the original lodging once lodged (an amendment), else now.
  const month = customsMonthOf(d.lodgedAt ? new Date(d.lodgedAt) : new Date());
  return {
    warehouseEntries: await warehouseEntriesOf(db, d),
    ...(d.type === 'import' ? { cbamKgThisYear: await cbamKgThisYear(db, d) } : {}),
    ...(currency && currency !== 'EUR' && /^[A-Z]{3}$/.test(currency)
      ? { customsRate: { month, rate: await customsRateOf(db, currency, month) } }
      : {}),
  };
}

/** The CN prefixes whose goods count towards the 50-tonne threshold (not electricity nor hydrogen). */
const CBAM_COUNTED = CBAM_PREFIXES.filter((p) => {
  const category = cbamCategoryOf(p.padEnd(8, '0'));
  return category !== null && !cbamWithoutDeMinimis(category);
}).map((p) => `${p}%`);

async function cbamKgThisYear(db: Db, d: Declaration): Promise<string> {
  const eori = d.consignee?.eori?.trim().toUpperCase();
  if (!eori) return '0';
  const r = await sql<{ kg: string }>`
    select coalesce(sum(i.net_mass_kg), 0)::text as kg
    from declaration_items i join declarations x on x.id = i.declaration_id
    where x.type = 'import' and x.id <> ${d.id || '00000000-0000-0000-0000-000000000000'}::uuid
      and upper(x.consignee->>'eori') = ${eori}
      and x.status in ('lodged', 'accepted', 'under_control', 'released')
      and x.lodged_at >= (date_trunc('year', now() at time zone ${COMPANY_TIME_ZONE}) at time zone ${COMPANY_TIME_ZONE})
      and left(i.procedure_code, 2) = any(${[...CBAM_RELEASE_PROCEDURES]}::text[])
      and i.commodity_code like any(${CBAM_COUNTED}::text[])
      and i.commodity_code not like '31056000%'`.execute(db);
  return r.rows[0]?.kg ?? '0';
}

export async function warehouseEntriesOf(
  db: Db,
  d: { items: readonly { previousDocuments?: readonly { reference: string }[] | null }[] },
): Promise<Record<string, CustomsStatus>> {
  const refs = [
    ...new Set(
      d.items.flatMap((i) => (i.previousDocuments ?? []).map((p) => p.reference.trim().toUpperCase())),
    ),
  ].filter((r) => r.length === 18);
  if (!refs.length) return {};
  const rows = await db
    .selectFrom('stock_receipts')
    .select(['inbound_mrn', 'customs_status'])
    .where('inbound_mrn', 'in', refs)
    .orderBy('received_on')
    .execute();
  const out: Record<string, CustomsStatus> = {};
  for (const r of rows) if (r.inbound_mrn && !out[r.inbound_mrn]) out[r.inbound_mrn] = r.customs_status;
  return out;
}

export async function itemTotals(db: Db, type: DeclarationType, declarationId: string) {
  const items = await readItems(db, type, declarationId);
  const t = declarationTotals(type, items);
  return {
    packages: t.packages,
    gross_mass_kg: t.grossMassKg,
    customs_value: t.customsValue,
    duty: t.duty,
    vat: t.vat,
    duty_and_vat: t.dutyAndVat,
  };
}

export function declarationsRepository(db: Db) {
  const list = listReader(db, declarationList);
  return {
    list: list.page,
    all: list.all,

    find: (scope: Scope, idOrLrn: string, lock = false) => findDeclaration(db, scope, idOrLrn, lock),

    items: (type: DeclarationType, declarationId: string) => readItems(db, type, declarationId),

    async messages(declarationId: string): Promise<DeclarationMessage[]> {
      const r = await sql<{
        id: string;
        direction: 'sent' | 'received';
        kind: DeclarationMessageKind;
        at: Date;
        summary: string;
        mrn: string | null;
        rules: DeclarationRule[];
        sandbox: boolean;
        created_by: string | null;
        created_by_name: string | null;
        has_xml: boolean;
      }>`
        select m.id, m.direction, m.kind, m.at, m.summary, m.mrn, m.rules, m.sandbox, m.created_by,
          u.name as created_by_name, coalesce(m.payload ? 'ie015', false) as has_xml
        from declaration_messages m left join users u on u.id = m.created_by
        where m.declaration_id = ${declarationId}
        order by m.at, m.id`.execute(db);
      return r.rows.map((m) => ({
        id: m.id,
        direction: m.direction,
        kind: m.kind,
        at: m.at.toISOString(),
        summary: m.summary,
        mrn: m.mrn,
        rules: m.rules.map((x) => ({ code: x.code, text: x.text, field: x.field ?? null })),
        sandbox: m.sandbox,
        by: m.created_by && m.created_by_name ? { id: m.created_by, name: m.created_by_name } : null,
        xml: m.has_xml ? ('IE015' as const) : null,
      }));
    },

    /** The NCTS XML of one message of this declaration, as sent; undefined when it has none. */
    async messageXml(declarationId: string, messageId: string): Promise<string | undefined> {
      const r = await sql<{ xml: string | null }>`
        select m.payload ->> 'ie015' as xml from declaration_messages m
        where m.id = ${messageId} and m.declaration_id = ${declarationId}`.execute(db);
      return r.rows[0]?.xml ?? undefined;
    },
  };
}
export type DeclarationsRepository = ReturnType<typeof declarationsRepository>;
