import {
  type AllowanceCharge,
  type Company,
  type DocumentAllowanceCharge,
  endpointOf,
  type InvoiceParty,
  SALES_CHARGE_CODE_LABELS,
  type SalesInvoiceWithAllowances,
  subtractDecimal,
  sumDecimal,
  VAT_EXEMPTION_TEXTS,
} from '@fvg/contracts';
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';

/*
 * UBL 2.1 in the Peppol BIS Billing 3.0 profile (EN 16931): an Invoice (380) or a CreditNote (381)
 * written from the invoice record as issued. Every amount comes from the record (its lines and the
 * totals invoice-math computed when it was saved); nothing is recomputed here, so the e-invoice and
 * the PDF can never disagree. Element order follows the UBL 2.1 XSD; ADR 0030 explains the choices
 * (electronic addresses, legal identifiers, prepaid amounts).
 */

export const CUSTOMIZATION_ID = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
export const PROFILE_ID = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

const NS = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};

/**
 * The ICD scheme of a company registration number by country (BT-30 schemeID): the Dutch rules
 * (NL-R-003/005) require KvK 0106 for Dutch suppliers; the others are the registers Peppol knows.
 */
const LEGAL_ID_SCHEMES: Readonly<Record<string, string>> = {
  NL: '0106',
  BE: '0208',
  DK: '0184',
  SE: '0007',
  NO: '0192',
};

export { endpointOf };

/** '21.00' → '21', '12.5000' → '12.5', '3.000' → '3' (the XML carries exact decimals, no padding). */
function plain(value: string): string {
  return value.includes('.') ? value.replace(/0+$/, '').replace(/\.$/, '') : value;
}

/** '-3.5' ↔ '3.5' on a decimal string, exactly. */
function negate(value: string): string {
  const v = value.trim();
  if (/^-?0*(\.0*)?$/.test(v)) return v.replace('-', '');
  return v.startsWith('-') ? v.slice(1) : `-${v}`;
}

type Node = XMLBuilder;

/** Appends `<name>text</name>` unless the text is empty: Peppol refuses empty elements (R008). */
function leaf(
  parent: Node,
  name: string,
  text: string | null | undefined,
  attrs?: Record<string, string>,
): void {
  if (text === null || text === undefined || text.trim() === '') return;
  parent.ele(name, attrs).txt(text);
}

function amount(parent: Node, name: string, value: string, currency: string): void {
  parent.ele(name, { currencyID: currency }).txt(value);
}

function taxScheme(parent: Node): void {
  parent.ele('cac:TaxScheme').ele('cbc:ID').txt('VAT');
}

function party(parent: Node, p: InvoiceParty, options: { withVat: boolean }): void {
  const node = parent.ele('cac:Party');
  const endpoint = endpointOf(p);
  if (endpoint) leaf(node, 'cbc:EndpointID', endpoint.id, { schemeID: endpoint.scheme });
  node.ele('cac:PartyName').ele('cbc:Name').txt(p.name);
  const address = node.ele('cac:PostalAddress');
  leaf(address, 'cbc:StreetName', p.street);
  leaf(address, 'cbc:CityName', p.city);
  leaf(address, 'cbc:PostalZone', p.postalCode);
  address.ele('cac:Country').ele('cbc:IdentificationCode').txt(p.countryCode);
  if (options.withVat && p.vatNumber) {
    const tax = node.ele('cac:PartyTaxScheme');
    tax.ele('cbc:CompanyID').txt(p.vatNumber.replace(/\s+/g, '').toUpperCase());
    taxScheme(tax);
  }
  const legal = node.ele('cac:PartyLegalEntity');
  legal.ele('cbc:RegistrationName').txt(p.name);
  if (p.registrationNumber) {
    const scheme = LEGAL_ID_SCHEMES[p.countryCode];
    // A scheme is claimed only where the country has one register (KvK for NL, as NL-R-003/005 want).
    leaf(legal, 'cbc:CompanyID', p.registrationNumber, scheme ? { schemeID: scheme } : undefined);
  }
  if (p.email) node.ele('cac:Contact').ele('cbc:ElectronicMail').txt(p.email);
}

function taxCategory(
  parent: Node,
  name: 'cac:TaxCategory' | 'cac:ClassifiedTaxCategory',
  code: string,
  rate: string | null,
  exemption: { code: string | null; text: string | null } | null,
): void {
  const cat = parent.ele(name);
  cat.ele('cbc:ID').txt(code);
  // Category O carries no rate at all (BR-O-05); E and AE carry 0.
  if (code !== 'O') cat.ele('cbc:Percent').txt(plain(rate ?? '0'));
  if (exemption) {
    leaf(cat, 'cbc:TaxExemptionReasonCode', exemption.code);
    leaf(cat, 'cbc:TaxExemptionReason', exemption.text);
  }
  taxScheme(cat);
}

/** The codes whose group carries an exemption reason (BR-S-10, BR-Z-10 forbid it elsewhere). */
const EXEMPT = new Set(['E', 'AE', 'K', 'G', 'O']);

/** The exemption of a group: the VATEX code and the legal wording (BT-121, BT-120). */
function exemptionOf(
  code: string,
  reason: string | null,
): { code: string | null; text: string | null } | null {
  if (!EXEMPT.has(code)) return null;
  const text = reason ? ((VAT_EXEMPTION_TEXTS as Record<string, string>)[reason] ?? null) : null;
  return { code: reason, text };
}

/**
 * An invoice with its allowances and charges, on the document (BG-20/BG-21) and on lines (BG-27/BG-28),
 * computed by documentTotals. The API does not store them yet (ADR 0049): the UBL writes them when given.
 */
export type UblInvoice = SalesInvoiceWithAllowances;

/** cac:AllowanceCharge: indicator, reason code and text, amount, and at document level its VAT category. */
function allowanceCharge(
  parent: Node,
  ac: AllowanceCharge | DocumentAllowanceCharge,
  cur: string,
  exemption: { code: string | null; text: string | null } | null = null,
): void {
  const el = parent.ele('cac:AllowanceCharge');
  el.ele('cbc:ChargeIndicator').txt(ac.isCharge ? 'true' : 'false');
  leaf(el, 'cbc:AllowanceChargeReasonCode', ac.reasonCode?.trim() || null);
  leaf(el, 'cbc:AllowanceChargeReason', ac.reason?.trim() || null);
  amount(el, 'cbc:Amount', ac.amount, cur);
  if ('vatCode' in ac) taxCategory(el, 'cac:TaxCategory', ac.vatCode, ac.vatRate, exemption);
}

export function invoiceUbl(invoice: UblInvoice, company: Company): string {
  if (!invoice.number || !invoice.issueDate)
    throw new Error('Only an issued invoice has an e-invoice (it needs its number and issue date)');
  const isCredit = invoice.kind === 'credit_note';
  const root = isCredit ? 'CreditNote' : 'Invoice';
  const cur = invoice.currency;
  const base = company.baseCurrency;
  const t = invoice.totals;
  const hasO = t.vatGroups.some((g) => g.vatCode === 'O');

  const doc = create({ version: '1.0', encoding: 'UTF-8' }).ele(NS[root], root, {
    'xmlns:cac': NS.cac,
    'xmlns:cbc': NS.cbc,
  });
  doc.ele('cbc:CustomizationID').txt(CUSTOMIZATION_ID);
  doc.ele('cbc:ProfileID').txt(PROFILE_ID);
  doc.ele('cbc:ID').txt(invoice.number);
  doc.ele('cbc:IssueDate').txt(invoice.issueDate);
  if (!isCredit) leaf(doc, 'cbc:DueDate', invoice.dueDate);
  doc.ele(isCredit ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode').txt(isCredit ? '381' : '380');
  if (cur !== base && invoice.exchangeRate)
    doc.ele('cbc:Note').txt(`Exchange rate: 1 ${cur} = ${plain(invoice.exchangeRate)} ${base}`);
  doc.ele('cbc:DocumentCurrencyCode').txt(cur);
  if (cur !== base) doc.ele('cbc:TaxCurrencyCode').txt(base);
  // Peppol wants a buyer reference or an order reference (R003): the dossier number, else the
  // customer code stands in when the customer gave none.
  const buyerReference =
    invoice.buyerReference ??
    (invoice.orderReference ? null : (invoice.dossier?.number ?? invoice.customer.code));
  leaf(doc, 'cbc:BuyerReference', buyerReference);
  if (invoice.orderReference) doc.ele('cac:OrderReference').ele('cbc:ID').txt(invoice.orderReference);
  if (isCredit && invoice.creditedInvoice?.number) {
    const ref = doc.ele('cac:BillingReference').ele('cac:InvoiceDocumentReference');
    ref.ele('cbc:ID').txt(invoice.creditedInvoice.number);
    // BT-26: the issue date of the invoice it corrects.
    leaf(ref, 'cbc:IssueDate', invoice.creditedInvoice.issueDate);
  }

  // Outside the scope of VAT, neither party's VAT number may appear (BR-O-02).
  party(doc.ele('cac:AccountingSupplierParty'), invoice.seller, { withVat: !hasO });
  party(doc.ele('cac:AccountingCustomerParty'), invoice.buyer, { withVat: !hasO });

  // An intra-Community supply states where the goods went (BR-IC-12): the buyer's member state, the
  // one its VAT number (which the supply needs, BR-IC-02) is of. Its date is required at issue (BR-IC-11).
  const intraCommunity = t.vatGroups.some((g) => g.vatCode === 'K');
  if (invoice.supplyDate || intraCommunity) {
    const delivery = doc.ele('cac:Delivery');
    leaf(delivery, 'cbc:ActualDeliveryDate', invoice.supplyDate);
    if (intraCommunity)
      delivery
        .ele('cac:DeliveryLocation')
        .ele('cac:Address')
        .ele('cac:Country')
        .ele('cbc:IdentificationCode')
        .txt(invoice.buyer.countryCode);
  }

  const iban = invoice.seller.iban ?? company.iban;
  const bic = invoice.seller.bic ?? company.bic;
  if (!isCredit && iban) {
    const means = doc.ele('cac:PaymentMeans');
    means.ele('cbc:PaymentMeansCode', { name: 'SEPA credit transfer' }).txt('58');
    means.ele('cbc:PaymentID').txt(invoice.number);
    const account = means.ele('cac:PayeeFinancialAccount');
    account.ele('cbc:ID').txt(iban.replace(/\s+/g, ''));
    account.ele('cbc:Name').txt(invoice.seller.name);
    if (bic) account.ele('cac:FinancialInstitutionBranch').ele('cbc:ID').txt(bic);
  }
  if (!isCredit)
    doc
      .ele('cac:PaymentTerms')
      .ele('cbc:Note')
      .txt(`Payment within ${invoice.paymentTermsDays} days, quoting ${invoice.number}`);

  // BG-20/BG-21 come before the tax total (UBL 2.1 element order).
  for (const ac of invoice.allowanceCharges ?? []) allowanceCharge(doc, ac, cur);

  const taxTotal = doc.ele('cac:TaxTotal');
  amount(taxTotal, 'cbc:TaxAmount', t.vatTotal, cur);
  for (const g of t.vatGroups) {
    const sub = taxTotal.ele('cac:TaxSubtotal');
    amount(sub, 'cbc:TaxableAmount', g.taxableAmount, cur);
    amount(sub, 'cbc:TaxAmount', g.vatAmount, cur);
    taxCategory(sub, 'cac:TaxCategory', g.vatCode, g.vatRate, exemptionOf(g.vatCode, g.exemptionReason));
  }
  // Art. 230: the VAT total in the VAT accounting currency (BT-111), a TaxTotal of its own.
  if (cur !== base) amount(doc.ele('cac:TaxTotal'), 'cbc:TaxAmount', t.vatTotalBase ?? '0.00', base);

  const monetary = doc.ele('cac:LegalMonetaryTotal');
  amount(monetary, 'cbc:LineExtensionAmount', t.lineExtensionAmount, cur);
  amount(monetary, 'cbc:TaxExclusiveAmount', t.taxExclusiveAmount, cur);
  amount(monetary, 'cbc:TaxInclusiveAmount', t.taxInclusiveAmount, cur);
  // BT-107/BT-108, written only when the document has allowances or charges (totals before them).
  const documentACs = invoice.allowanceCharges ?? [];
  if (documentACs.length > 0) {
    const total = (isCharge: boolean) =>
      sumDecimal(documentACs.filter((ac) => ac.isCharge === isCharge).map((ac) => ac.amount));
    amount(monetary, 'cbc:AllowanceTotalAmount', total(false), cur);
    amount(monetary, 'cbc:ChargeTotalAmount', total(true), cur);
  }
  if (t.payableAmount !== t.taxInclusiveAmount) {
    // What was paid before this document is its prepaid amount (BT-113), so BR-CO-16 holds.
    const prepaid = subtractDecimal(t.taxInclusiveAmount, t.payableAmount);
    amount(monetary, 'cbc:PrepaidAmount', prepaid, cur);
  }
  amount(monetary, 'cbc:PayableAmount', t.payableAmount, cur);

  invoice.lines.forEach((l, i) => {
    const line = doc.ele(isCredit ? 'cac:CreditNoteLine' : 'cac:InvoiceLine');
    line.ele('cbc:ID').txt(String(i + 1));
    // A price is never negative in UBL (BR-27): a discount line moves its sign to the quantity,
    // which leaves quantity × price, the line net, as it is.
    const negativePrice = l.unitPrice.trim().startsWith('-');
    const quantity = negativePrice ? negate(l.quantity) : l.quantity;
    const price = negativePrice ? negate(l.unitPrice) : l.unitPrice;
    line
      .ele(isCredit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity', { unitCode: l.unit })
      .txt(plain(quantity));
    amount(line, 'cbc:LineExtensionAmount', l.lineNet, cur);
    for (const ac of l.allowanceCharges ?? []) allowanceCharge(line, ac, cur);
    const item = line.ele('cac:Item');
    item.ele('cbc:Name').txt(l.description.trim() || SALES_CHARGE_CODE_LABELS[l.chargeCode]);
    item.ele('cac:SellersItemIdentification').ele('cbc:ID').txt(l.chargeCode);
    taxCategory(item, 'cac:ClassifiedTaxCategory', l.vatCode, l.vatRate, null);
    amount(line.ele('cac:Price'), 'cbc:PriceAmount', plain(price), cur);
  });

  return doc.end({ prettyPrint: true });
}
