import type { Role } from '@fvg/contracts';
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface PartiesTable {
  id: Generated<string>;
  code: string;
  name: string;
  kinds: ColumnType<string[], string[] | undefined, string[]>;
  country_code: string;
  vat_number: string | null;
  eori: string | null;
  peppol_scheme: string | null;
  peppol_id: string | null;
  street: string | null;
  postal_code: string | null;
  city: string | null;
  email: string | null;
  phone: string | null;
  contacts: ColumnType<
    { name: string; email?: string | null; phone?: string | null; role?: string | null }[],
    string | undefined,
    string
  >;
  version: Generated<number>;
  created_at: Generated<Date>;
  created_by: string | null;
  updated_at: Generated<Date>;
  updated_by: string | null;
}

export interface UsersTable {
  id: Generated<string>;
  email: string;
  name: string;
  password_hash: string | null;
  role: Role;
  party_id: string | null;
  cw_access: Generated<boolean>;
  active: Generated<boolean>;
  password_changed_at: Generated<Date>;
  /** Migration 0036: an administrator ended every session; tokens issued before it are refused. */
  sessions_ended_at: Date | null;
  last_login_at: Date | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface PasswordResetTokensTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  expires_at: Timestamp;
  used_at: Date | null;
  created_at: Generated<Date>;
}

export interface MailOutboxTable {
  id: Generated<string>;
  to_address: string;
  subject: string;
  text_body: string;
  created_at: Generated<Date>;
  sent_at: Date | null;
  error: string | null;
  /** What the `mail.send` job attaches: read as an array (jsonb), written as its JSON text. */
  attachments: ColumnType<MailAttachmentRow[], string | undefined, string>;
}

/** One attachment of a queued mail: the bytes are the document's (migration 0019). */
export interface MailAttachmentRow {
  fileName: string;
  contentType: string;
  documentId: string;
}

export interface SettingsTable {
  key: string;
  value: string;
}

/** One limit bucket of sign-in attempts or reset mails (ADR 0016). */
export interface ThrottleBucketsTable {
  bucket: string;
  attempts: Generated<number>;
  window_start: Generated<Date>;
  strikes: Generated<number>;
  blocked_until: Date | null;
  updated_at: Generated<Date>;
}

/** Addresses a user signed in from successfully: they pass the per-account limit. */
export interface LoginKnownAddressesTable {
  user_id: string;
  address: string;
  last_success_at: Generated<Date>;
}

export interface Database {
  parties: PartiesTable;
  users: UsersTable;
  password_reset_tokens: PasswordResetTokensTable;
  mail_outbox: MailOutboxTable;
  settings: SettingsTable;
  throttle_buckets: ThrottleBucketsTable;
  login_known_addresses: LoginKnownAddressesTable;
  number_series: NumberSeriesTable;
  company_settings: CompanySettingsTable;
  customs_exchange_rates: CustomsExchangeRatesTable;
  document_series: DocumentSeriesTable;
  document_series_years: DocumentSeriesYearsTable;
  audit_log: AuditLogTable;
  dossiers: DossiersTable;
  dossier_charges: DossierChargesTable;
  chat_messages: ChatMessagesTable;
  chat_reads: ChatReadsTable;
  transports: TransportsTable;
}

/** The one row of the company's own data (migration 0016). */
export interface CustomsExchangeRatesTable {
  /** The month's first day, `YYYY-MM-01`. */
  month: string;
  currency: string;
  rate: string;
  updated_at: Generated<Date>;
  updated_by: string | null;
}

export interface CompanySettingsTable {
  id: Generated<string>;
  legal_name: string;
  street: string | null;
  postal_code: string | null;
  city: string | null;
  country_code: string;
  vat_number: string | null;
  eori: string | null;
  registration_number: string | null;
  iban: string | null;
  bic: string | null;
  email: string | null;
  peppol_scheme: string | null;
  peppol_id: string | null;
  base_currency: string;
  payment_terms_days: number;
  invoice_footer: string | null;
  /** Migration 0023: SSCCs of pallets are generated under it (none: typed only). */
  gs1_company_prefix: string | null;
  sscc_extension_digit: Generated<number>;
  /** Migration 0029: nothing is issued or paid on or before this day. */
  books_closed_up_to: string | null;
  version: Generated<number>;
  updated_at: Generated<Date>;
  updated_by: string | null;
}

export interface DocumentSeriesTable {
  kind: string;
  prefix: string;
}

export interface DocumentSeriesYearsTable {
  kind: string;
  year: number;
  next_number: number;
  last_issued: Generated<number>;
}

export interface NumberSeriesTable {
  series: string;
  year: number;
  last_value: number;
}

export interface AuditLogTable {
  id: Generated<string>;
  record_kind: string;
  record_id: string;
  action: string;
  actor_id: string | null;
  at: Generated<Date>;
  changes: ColumnType<unknown, string, string>;
}

type Numeric = ColumnType<string, string | number, string | number>;
type NullableNumeric = ColumnType<string | null, string | number | null | undefined, string | number | null>;
type DateCol = ColumnType<string | null, string | null | undefined, string | null>;

export interface DossiersTable {
  id: Generated<string>;
  number: string;
  status: Generated<string>;
  type: string;
  mode: string;
  customer_id: string;
  consignor_id: string | null;
  consignee_id: string | null;
  notify_party_id: string | null;
  incoterm: string | null;
  incoterm_place: string | null;
  origin_locode: string | null;
  destination_locode: string | null;
  etd: DateCol;
  eta: DateCol;
  atd: DateCol;
  ata: DateCol;
  customer_reference: string | null;
  booking_number: string | null;
  master_bl: string | null;
  house_bl: string | null;
  cmr_number: string | null;
  cargo_description: string | null;
  packages: number | null;
  package_type: string | null;
  gross_weight_kg: NullableNumeric;
  volume_m3: NullableNumeric;
  chargeable_weight_kg: NullableNumeric;
  handler_id: string | null;
  containers: ColumnType<{ number: string; sizeType: string | null; seals: string[] }[], string, string>;
  container_numbers: ColumnType<string[], string[] | undefined, string[]>;
  cost_total: ColumnType<string, string | undefined, string>;
  revenue_total: ColumnType<string, string | undefined, string>;
  profit: ColumnType<string, never, never>;
  version: Generated<number>;
  created_at: Generated<Date>;
  created_by: string | null;
  updated_at: Generated<Date>;
  updated_by: string | null;
}

export interface DossierChargesTable {
  id: Generated<string>;
  dossier_id: string;
  position: number;
  kind: 'cost' | 'revenue';
  /** One of SALES_CHARGE_CODES (migration 0045's check). */
  charge_code: string;
  description: string;
  party_id: string | null;
  amount: Numeric;
  /** Quantity, unit and unit price of a charge priced per unit; all null for a lump sum (migration 0045). */
  quantity: ColumnType<string | null, string | null | undefined, string | null>;
  unit: ColumnType<string | null, string | null | undefined, string | null>;
  unit_price: ColumnType<string | null, string | null | undefined, string | null>;
  currency: string;
  exchange_rate: Numeric;
  base_amount: Numeric;
  /** The issued invoice line that bills this revenue charge (migration 0018). */
  invoiced_line_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ChatMessagesTable {
  id: Generated<string>;
  dossier_id: string;
  author_id: string;
  /** The customer party it was said to or by: the dossier's customer then (migration 0031, its trigger fills it). */
  party_id: ColumnType<string, string | undefined, string>;
  text: string;
  sent_at: Generated<Date>;
}

export interface ChatReadsTable {
  dossier_id: string;
  user_id: string;
  last_read_at: Date;
}

type Instant = ColumnType<Date | null, string | null | undefined, string | null>;

export interface TransportsTable {
  id: Generated<string>;
  dossier_id: string;
  sequence: number;
  status: Generated<string>;
  mode: string;
  carrier_id: string | null;
  truck_plate: string | null;
  trailer_plate: string | null;
  vessel_name: string | null;
  vessel_imo: string | null;
  flight_number: string | null;
  pickup_locode: string | null;
  pickup_address: string | null;
  pickup_from: Instant;
  pickup_to: Instant;
  delivery_locode: string | null;
  delivery_address: string | null;
  delivery_from: Instant;
  delivery_to: Instant;
  actual_pickup_at: Instant;
  actual_delivery_at: Instant;
  driver_name: string | null;
  driver_phone: string | null;
  containers: ColumnType<string[], string[] | undefined, string[]>;
  notes: string | null;
  /** The remark the customer sees (migration 0031); `notes` are internal. */
  customer_remark: ColumnType<string | null, string | null | undefined, string | null>;
  version: Generated<number>;
  created_at: Generated<Date>;
  created_by: string | null;
  updated_at: Generated<Date>;
  updated_by: string | null;
}

export interface DocumentsTable {
  id: Generated<string>;
  record_type: string;
  record_id: string;
  dossier_id: string | null;
  /** The party a document of a record other than a dossier or leg belongs to (0020); an invoice's and a declaration's is set by trigger to its customer (0031). */
  party_id: ColumnType<string | null, string | null | undefined, string | null>;
  storage_key: string;
  file_name: string;
  content_type: string;
  size_bytes: ColumnType<number, number, number>;
  sha256: string;
  document_type: string;
  visible_to_customer: Generated<boolean>;
  version: Generated<number>;
  uploaded_by: string | null;
  uploaded_at: Generated<Date>;
  updated_at: Generated<Date>;
  updated_by: string | null;
}

// Declaration merging: the documents table joins the one Database interface above.
export interface Database {
  documents: DocumentsTable;
}

export interface IntegrationApiKeysTable {
  id: Generated<string>;
  name: string;
  key_prefix: string;
  /** SHA-256 of the key, hex. */
  key_hash: string;
  created_by: string | null;
  created_at: Generated<Date>;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

export interface ContainerEventsTable {
  id: Generated<string>;
  /** The DCSA eventID (a UUID): the idempotency key. */
  event_id: string;
  event_type: 'EQUIPMENT' | 'TRANSPORT' | 'SHIPMENT';
  classifier: 'PLN' | 'EST' | 'ACT';
  event_date_time: Timestamp;
  event_created_date_time: Timestamp;
  equipment_event_type_code: string | null;
  transport_event_type_code: string | null;
  shipment_event_type_code: string | null;
  equipment_reference: string | null;
  iso_equipment_code: string | null;
  empty_indicator_code: string | null;
  un_location_code: string | null;
  facility_code: string | null;
  facility_type_code: string | null;
  mode_of_transport: string | null;
  vessel_imo: string | null;
  vessel_name: string | null;
  voyage: string | null;
  document_type_code: string | null;
  document_id: string | null;
  /** Booking and BL values (upper case) the event names: what links it to a dossier. */
  document_references: ColumnType<string[], string[] | undefined, string[]>;
  /** The event as validated (DCSA field names). */
  raw: ColumnType<unknown, string, string>;
  dossier_id: string | null;
  source: 'api' | 'csv' | 'manual';
  created_at: Generated<Date>;
  created_by: string | null;
  api_key_id: string | null;
}

export interface ContainerSummariesTable {
  id: Generated<string>;
  equipment_reference: string;
  dossier_id: string | null;
  iso_equipment_code: string | null;
  event_count: number;
  latest_event_id: string;
  latest_is_act: boolean;
  latest_event_date_time: Timestamp;
  latest_event_created_date_time: Timestamp;
  latest_event_type: string;
  latest_type_code: string;
  updated_at: Generated<Date>;
}

// Declaration merging: the container-event tables join the one Database interface above.
export interface Database {
  integration_api_keys: IntegrationApiKeysTable;
  container_events: ContainerEventsTable;
  container_summaries: ContainerSummariesTable;
}

/** First answers to POSTs sent with an Idempotency-Key (ADR 0020); `status` null while in progress. */
export interface IdempotencyKeysTable {
  user_id: string;
  key: string;
  /** `POST /api/dossiers`: shown in the 422 when a key is reused for another request. */
  request: string;
  fingerprint: string;
  status: number | null;
  headers: ColumnType<Record<string, string> | null, string | null, string | null>;
  body: Buffer | null;
  created_at: Generated<Date>;
  completed_at: Date | null;
}

export interface Database {
  idempotency_keys: IdempotencyKeysTable;
}

/** Notifications per user (ADR 0024); `read_at` null while unread. */
export interface NotificationsTable {
  id: Generated<string>;
  user_id: string;
  kind: 'chat-message' | 'booking-requested' | 'invoice-overdue';
  title: string;
  body: string;
  link: string | null;
  dossier_id: string | null;
  created_at: Generated<Date>;
  read_at: Date | null;
}

export interface Database {
  notifications: NotificationsTable;
}

/** Sales offers and their lines (migration 0017); `dossier_id` is set when the offer is accepted. */
export interface SalesOffersTable {
  id: Generated<string>;
  number: string;
  status: ColumnType<
    'draft' | 'sent' | 'accepted' | 'rejected' | 'expired' | 'cancelled',
    'draft' | 'sent' | 'accepted' | 'rejected' | 'expired' | 'cancelled' | undefined,
    'draft' | 'sent' | 'accepted' | 'rejected' | 'expired' | 'cancelled'
  >;
  customer_id: string;
  contact_name: string | null;
  contact_email: string | null;
  valid_until: string;
  origin_locode: string | null;
  destination_locode: string | null;
  mode: string;
  incoterm: string | null;
  incoterm_place: string | null;
  dossier_type: ColumnType<string, string | undefined, string>;
  cargo_description: string | null;
  packages: number | null;
  package_type: string | null;
  gross_weight_kg: NullableNumeric;
  volume_m3: NullableNumeric;
  notes: string | null;
  dossier_id: string | null;
  sent_at: Date | null;
  decided_at: Date | null;
  decided_by: string | null;
  version: Generated<number>;
  created_at: Generated<Date>;
  created_by: string | null;
  updated_at: Generated<Date>;
  updated_by: string | null;
}

export interface SalesOfferLinesTable {
  id: Generated<string>;
  offer_id: string;
  position: number;
  charge_code: string;
  description: string;
  quantity: Numeric;
  unit: string;
  unit_price: Numeric;
  currency: string;
  exchange_rate: Numeric;
  vat_code: string;
  vat_rate: NullableNumeric;
  line_net: Numeric;
}

export interface Database {
  sales_offers: SalesOffersTable;
  sales_offer_lines: SalesOfferLinesTable;
}

/** Sales invoices and credit notes (migration 0018); content frozen by a trigger once numbered. */
export interface SalesInvoicesTable {
  id: Generated<string>;
  kind: 'invoice' | 'credit_note';
  number: string | null;
  status: Generated<'draft' | 'issued' | 'partially_paid' | 'paid' | 'credited'>;
  customer_id: string;
  dossier_id: string | null;
  credited_invoice_id: string | null;
  currency: string;
  exchange_rate: NullableNumeric;
  issue_date: DateCol;
  supply_date: DateCol;
  due_date: DateCol;
  payment_terms_days: number;
  buyer_reference: string | null;
  order_reference: string | null;
  notes: string | null;
  seller: ColumnType<unknown, string | null | undefined, string | null>;
  buyer: ColumnType<unknown, string | null | undefined, string | null>;
  line_extension_amount: ColumnType<string, string | undefined, string>;
  vat_total: ColumnType<string, string | undefined, string>;
  tax_inclusive_amount: ColumnType<string, string | undefined, string>;
  vat_total_base: ColumnType<string, string | undefined, string>;
  /** BG-20/BG-21 (migration 0034): `DocumentAllowanceCharge[]` as JSON. */
  allowance_charges: ColumnType<unknown, string | undefined, string>;
  allowance_total_amount: ColumnType<string, string | undefined, string>;
  charge_total_amount: ColumnType<string, string | undefined, string>;
  paid_amount: ColumnType<string, string | undefined, string>;
  credited_amount: ColumnType<string, string | undefined, string>;
  overdue_notified_at: Date | null;
  version: Generated<number>;
  created_at: Generated<Date>;
  created_by: string | null;
  updated_at: Generated<Date>;
  updated_by: string | null;
  issued_at: Date | null;
  issued_by: string | null;
}

export interface SalesInvoiceLinesTable {
  id: Generated<string>;
  invoice_id: string;
  position: number;
  charge_id: string | null;
  credited_line_id: string | null;
  charge_code: string;
  description: string;
  quantity: Numeric;
  unit: string;
  unit_price: Numeric;
  vat_code: string;
  vat_rate: NullableNumeric;
  exemption_reason: string | null;
  /** BG-27/BG-28 (migration 0034): `AllowanceCharge[]` as JSON. */
  allowance_charges: ColumnType<unknown, string | undefined, string>;
  line_net: Numeric;
}

export interface SalesInvoicePaymentsTable {
  id: Generated<string>;
  invoice_id: string;
  paid_on: string;
  amount: Numeric;
  reference: string | null;
  created_at: Generated<Date>;
  created_by: string | null;
  deleted_at: Date | null;
  deleted_by: string | null;
  delete_reason: string | null;
}

export interface Database {
  sales_invoices: SalesInvoicesTable;
  sales_invoice_lines: SalesInvoiceLinesTable;
  sales_invoice_payments: SalesInvoicePaymentsTable;
}

/** A jsonb column: read as parsed JSON, written as its JSON text. */
type JsonCol<T> = ColumnType<T, string | undefined, string>;
type NullableJsonCol<T> = ColumnType<T | null, string | null | undefined, string | null>;
type TextArray = ColumnType<string[], string[] | undefined, string[]>;

/** A party as a declaration names it (the contract's DeclarationParty). */
export interface DeclarationPartyJson {
  partyId: string | null;
  name: string;
  street: string | null;
  postalCode: string | null;
  city: string | null;
  countryCode: string | null;
  eori: string | null;
}
export interface DeclarationRuleJson {
  code: string;
  text: string;
  field: string | null;
}

/** Customs declarations, their items and messages (migration 0020). */
export interface DeclarationsTable {
  id: Generated<string>;
  type: 'import' | 'export' | 'transit';
  category: 'H1' | 'H2' | 'B1' | 'T1' | 'T2';
  status: Generated<
    | 'draft'
    | 'lodged'
    | 'accepted'
    | 'under_control'
    | 'released'
    | 'not_released'
    | 'rejected'
    | 'cancelled'
    | 'exited'
    | 'arrived'
    | 'discharged'
  >;
  lrn: string;
  mrn: string | null;
  gateway: Generated<string>;
  dossier_id: string | null;
  customer_id: string;
  /** The shipment whose outbound declaration this is (migration 0033). */
  shipment_id: string | null;
  declarant: NullableJsonCol<DeclarationPartyJson>;
  representative: NullableJsonCol<DeclarationPartyJson>;
  consignor: NullableJsonCol<DeclarationPartyJson>;
  consignee: NullableJsonCol<DeclarationPartyJson>;
  holder: NullableJsonCol<DeclarationPartyJson>;
  representative_status: '1' | '2' | '3' | null;
  office_of_lodgement: string | null;
  office_of_exit_entry: string | null;
  office_of_destination: string | null;
  offices_of_transit: TextArray;
  country_of_dispatch: string | null;
  country_of_destination: string | null;
  transport_mode_border: string | null;
  transport_mode_inland: string | null;
  means_at_departure: string | null;
  means_at_departure_country: string | null;
  means_at_border: string | null;
  means_at_border_country: string | null;
  container_indicator: Generated<boolean>;
  incoterm: string | null;
  incoterm_place: string | null;
  nature_of_transaction: string | null;
  currency: string | null;
  invoice_total: NullableNumeric;
  exchange_rate: NullableNumeric;
  location_of_goods: string | null;
  location_of_goods_type: string | null;
  location_of_goods_qualifier: string | null;
  warehouse_reference: string | null;
  authorisations: JsonCol<{ type: string; reference: string }[]>;
  additional_information: JsonCol<{ code: string; text: string | null }[]>;
  seals: JsonCol<{ identifier: string; container: string | null }[]>;
  limit_date: string | null;
  guarantee_type: string | null;
  addition_transport_insurance: NullableNumeric;
  addition_commissions: NullableNumeric;
  addition_packing: NullableNumeric;
  deduction_transport_after_entry: NullableNumeric;
  deduction_duties: NullableNumeric;
  apportionment: string | null;
  method_of_payment: string | null;
  guarantee_reference: string | null;
  guarantee_amount: NullableNumeric;
  notes: string | null;
  packages: ColumnType<number, number | undefined, number>;
  gross_mass_kg: ColumnType<string, string | undefined, string>;
  customs_value: ColumnType<string, string | undefined, string>;
  duty: NullableNumeric;
  vat: NullableNumeric;
  duty_and_vat: NullableNumeric;
  pending_request: 'amendment' | 'cancellation' | null;
  pending_amendment: NullableJsonCol<unknown>;
  rejection: JsonCol<DeclarationRuleJson[]>;
  last_message_kind: string | null;
  last_message_at: Date | null;
  lodged_at: Date | null;
  accepted_at: Date | null;
  released_at: Date | null;
  exited_at: Date | null;
  arrived_at: Date | null;
  discharged_at: Date | null;
  version: Generated<number>;
  created_at: Generated<Date>;
  created_by: string | null;
  updated_at: Generated<Date>;
  updated_by: string | null;
}

export interface DeclarationItemsTable {
  id: Generated<string>;
  declaration_id: string;
  position: number;
  commodity_code: string | null;
  description: string | null;
  country_of_origin: string | null;
  preference: string | null;
  procedure_code: string | null;
  additional_procedure_codes: TextArray;
  valuation_method: string | null;
  valuation_reason: string | null;
  supplementary_units: NullableNumeric;
  packages: number | null;
  package_kind: string | null;
  marks: string | null;
  gross_mass_kg: NullableNumeric;
  net_mass_kg: NullableNumeric;
  invoice_value: NullableNumeric;
  customs_value: NullableNumeric;
  statistical_value: NullableNumeric;
  duty_rate: NullableNumeric;
  vat_rate: NullableNumeric;
  vat_costs: NullableNumeric;
  containers: TextArray;
  supporting_documents: JsonCol<{ type: string; reference: string }[]>;
  previous_documents: JsonCol<{ type: string; reference: string }[]>;
  duty: NullableNumeric;
  vat_base: NullableNumeric;
  vat: NullableNumeric;
}

export interface DeclarationMessagesTable {
  id: Generated<string>;
  declaration_id: string;
  direction: 'sent' | 'received';
  kind: string;
  at: Generated<Date>;
  summary: string;
  mrn: string | null;
  rules: JsonCol<DeclarationRuleJson[]>;
  payload: NullableJsonCol<unknown>;
  sandbox: boolean;
  created_by: string | null;
}

export interface Database {
  declarations: DeclarationsTable;
  declaration_items: DeclarationItemsTable;
  declaration_messages: DeclarationMessagesTable;
}

// ---- customs warehouse: stock (migration 0023) -----------------------------------------------------

type CustomsStatusCol = 'union' | 'non_union_customs_warehousing' | 'temporary_storage';

export interface StockReceiptsTable {
  id: Generated<string>;
  number: string;
  owner_id: string;
  received_on: string;
  customs_status: CustomsStatusCol;
  inbound_mrn: string | null;
  inbound_mrn_external: Generated<boolean>;
  entry_declaration_id: string | null;
  notes: string | null;
  version: Generated<number>;
  created_at: Generated<Date>;
  created_by: string | null;
  updated_at: Generated<Date>;
  updated_by: string | null;
}

export interface StockRecordsTable {
  id: Generated<string>;
  receipt_id: string;
  line_no: number;
  owner_id: string;
  sku: string;
  description: string;
  commodity_code: string | null;
  country_of_origin: string | null;
  unit: string;
  quantity_received: number;
  quantity_on_hand: number;
  quantity_reserved: Generated<number>;
  /** Generated always (on hand − reserved). */
  quantity_available: ColumnType<number, never, never>;
  customs_status: CustomsStatusCol;
  inbound_mrn: string | null;
  received_on: string;
  location: string;
  location_count: Generated<number>;
  packages: number | null;
  gross_mass_kg: NullableNumeric;
  net_mass_kg: NullableNumeric;
  value: NullableNumeric;
  currency: string | null;
  notes: string | null;
  version: Generated<number>;
  created_at: Generated<Date>;
  created_by: string | null;
  updated_at: Generated<Date>;
  updated_by: string | null;
}

export interface HandlingUnitsTable {
  id: Generated<string>;
  stock_record_id: string;
  parent_id: string | null;
  kind: 'pallet' | 'carton' | 'item';
  sscc: string | null;
  reference: string | null;
  quantity: number;
  quantity_reserved: Generated<number>;
  location: string;
  position: number;
  created_at: Generated<Date>;
}

/** Append-only (a trigger refuses UPDATE and DELETE). */
export interface StockMovementsTable {
  id: Generated<string>;
  stock_record_id: string;
  handling_unit_id: string | null;
  kind: 'receipt' | 'transfer' | 'pick' | 'adjustment';
  quantity: number;
  from_location: string | null;
  to_location: string | null;
  reason: string | null;
  shipment_id: string | null;
  at: Generated<Date>;
  created_by: string | null;
}

export interface Database {
  stock_receipts: StockReceiptsTable;
  stock_records: StockRecordsTable;
  handling_units: HandlingUnitsTable;
  stock_movements: StockMovementsTable;
}

// ---- customs warehouse: shipments (migration 0024) -------------------------------------------------

export interface ShipmentsTable {
  id: Generated<string>;
  number: string;
  owner_id: string;
  status: Generated<'draft' | 'released' | 'picking' | 'packed' | 'shipped' | 'cancelled'>;
  consignee_id: string | null;
  consignee_name: string | null;
  delivery_address: string | null;
  planned_date: DateCol;
  outbound_procedure: '4071' | '3171' | '4000' | '3100' | null;
  customer_reference: string | null;
  notes: string | null;
  released_at: Date | null;
  picking_at: Date | null;
  packed_at: Date | null;
  shipped_at: Date | null;
  cancelled_at: Date | null;
  cancel_reason: string | null;
  version: Generated<number>;
  created_at: Generated<Date>;
  created_by: string | null;
  updated_at: Generated<Date>;
  updated_by: string | null;
}

export interface ShipmentLinesTable {
  id: Generated<string>;
  shipment_id: string;
  position: number;
  sku: string;
  stock_record_id: string | null;
  quantity: number;
  description: string | null;
}

export interface ShipmentAllocationsTable {
  id: Generated<string>;
  shipment_id: string;
  line_id: string;
  stock_record_id: string;
  handling_unit_id: string | null;
  quantity: number;
  state: Generated<'reserved' | 'picked' | 'shipped' | 'freed'>;
  created_at: Generated<Date>;
}

export interface Database {
  shipments: ShipmentsTable;
  shipment_lines: ShipmentLinesTable;
  shipment_allocations: ShipmentAllocationsTable;
}

/** Migration 0027: a user's profile preferences; no row = the defaults (DEFAULT_USER_PREFERENCES). */
export interface UserPreferencesTable {
  user_id: string;
  currency: Generated<string>;
  decimal_separator: Generated<string>;
  thousands_separator: Generated<string>;
  date_format: Generated<string>;
  time_format: Generated<string>;
  time_zone: string | null;
  language: Generated<string>;
  updated_at: Generated<Date>;
}

export interface Database {
  user_preferences: UserPreferencesTable;
}

/** Migration 0026: counts by party and key of the dashboard's big tables, kept by triggers (ADR 0037). */
export interface DashboardCountsTable {
  area: 'dossiers' | 'declarations' | 'stock' | 'shipments' | 'open-invoices' | 'revenue';
  party_id: string;
  key: string;
  /** Due date (open invoices), issue date (revenue), -infinity for plain counts. */
  day: string;
  n: ColumnType<string, string | number, string | number>;
  amount: ColumnType<string, string | number, string | number>;
}

// Declaration merging: the dashboard's counts join the one Database interface above.
/** Migration 0026: the same counts summed over parties, spread over shards so writers rarely wait. */
export interface DashboardTotalsTable {
  area: DashboardCountsTable['area'];
  key: string;
  day: string;
  shard: number;
  n: ColumnType<string, string | number, string | number>;
  amount: ColumnType<string, string | number, string | number>;
}

export interface Database {
  dashboard_counts: DashboardCountsTable;
  dashboard_totals: DashboardTotalsTable;
}

// ---- global search (migration 0025, ADR 0036) -------------------------------------------------------

/** One searchable record; written only by the triggers and rebuildSearchIndex (search_refresh). */
export interface SearchEntriesTable {
  kind: string;
  record_id: string;
  /** The party a customer must be to find it; null: staff only. */
  party_id: string | null;
  customer_visible: boolean;
  needs_cw: boolean;
  title: string;
  subtitle: string;
  link: ColumnType<unknown, string, string>;
  words: string;
  name: string | null;
  sort_at: Date;
}

/** One normalized identifier of a record (search_ident: A–Z and 0–9 only). */
export interface SearchIdentsTable {
  ident: string;
  kind: string;
  record_id: string;
  party_id: string | null;
  customer_visible: boolean;
  needs_cw: boolean;
  /** The identifier as the record spells it. */
  label: string;
}

export interface Database {
  search_entries: SearchEntriesTable;
  search_idents: SearchIdentsTable;
}

/** Migration 0036 (ADR 0052): tokens signed out before they expired, by SHA-256 of the token. */
export interface EndedTokensTable {
  token_hash: string;
  user_id: string;
  expires_at: Timestamp;
  ended_at: Generated<Date>;
}

export interface Database {
  ended_tokens: EndedTokensTable;
}
