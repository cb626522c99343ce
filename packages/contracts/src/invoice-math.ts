/**
 * The arithmetic of offers, invoices and credit notes, as EN 16931 checks it (ADR 0029): a line's
 * net is quantity × unit price rounded to 2 decimals; the VAT of each (category, rate) group is
 * computed once from the group's net, not summed from rounded line VATs; every total is a sum.
 * Pure and exact (BigInt decimals of money.ts, half away from zero), so the API, the screens' live
 * totals, the PDF and the UBL all show the same cents. No zod here (ADR 0023).
 */
import {
  compareDecimal,
  multiplyDecimal,
  percentOfDecimal,
  subtractDecimal,
  sumDecimal,
  trimDecimal,
} from './money.ts';
import type { VatCode, VatExemptionReason } from './sales-values.ts';

/**
 * An allowance (a discount) or a charge (a surcharge), on a line (BG-27/BG-28) or on the whole
 * document (BG-20/BG-21). Amounts are positive, without VAT, 2 decimals; the indicator says which.
 */
export interface AllowanceCharge {
  /** true: a charge (BG-21/BG-28, UNCL7161 reasons); false: an allowance (BG-20/BG-27, UNCL5189). */
  isCharge: boolean;
  /** BT-92/BT-99/BT-136/BT-141, > 0. */
  amount: string;
  /** BT-98/BT-105/BT-140/BT-145. */
  reasonCode?: string | null;
  /** BT-97/BT-104/BT-139/BT-144. */
  reason?: string | null;
}

/** A document-level allowance or charge also says the VAT category and rate it falls in (BR-32, BR-37). */
export interface DocumentAllowanceCharge extends AllowanceCharge {
  vatCode: VatCode;
  vatRate: string | null;
}

/** UNCL5189, the allowance reason codes EN 16931 accepts (BR-CL-19). */
export const ALLOWANCE_REASON_CODES = [
  '41',
  '42',
  '60',
  '62',
  '63',
  '64',
  '65',
  '66',
  '67',
  '68',
  '70',
  '71',
  '88',
  '95',
  '100',
  '102',
  '103',
  '104',
  '105',
] as const;

/** UNCL7161, the charge reason codes EN 16931 accepts (BR-CL-20, CEN artefacts 1.3.14.1). */
const CHARGE_REASON_CODE_SET: ReadonlySet<string> = new Set(
  'AA AAA AAC AAD AAE AAF AAH AAI AAS AAT AAV AAY AAZ ABA ABB ABC ABD ABF ABK ABL ABN ABR ABS ABT ABU ACF ACG ACH ACI ACJ ACK ACL ACM ACS ADC ADE ADJ ADK ADL ADM ADN ADO ADP ADQ ADR ADT ADW ADY ADZ AEA AEB AEC AED AEF AEH AEI AEJ AEK AEL AEM AEN AEO AEP AES AET AEU AEV AEW AEX AEY AEZ AJ AU CA CAB CAD CAE CAF CAI CAJ CAK CAL CAM CAN CAO CAP CAQ CAR CAS CAT CAU CAV CAW CAX CAY CAZ CD CG CS CT DAB DAD DAC DAF DAG DAH DAI DAJ DAK DAL DAM DAN DAO DAP DAQ DL EG EP ER FAA FAB FAC FC FH FI GAA HAA HD HH IAA IAB ID IF IR IS KO L1 LA LAA LAB LF MAE MI ML NAA OA PA PAA PC PL PRV RAB RAC RAD RAF RE RF RH RV SA SAA SAD SAE SAI SG SH SM SU TAB TAC TT TV V1 V2 WH XAA YY ZZZ'.split(
    ' ',
  ),
);

/**
 * The charges a forwarder commonly adds, with their UNCL7161 names: the editor's picker. Any other
 * code of the list is accepted too (a reason text says what it is).
 */
export const CHARGE_REASONS: Readonly<Record<string, string>> = {
  FC: 'Freight service',
  ADT: 'Pick-up',
  DL: 'Delivery',
  SH: 'Special handling',
  PC: 'Packing',
  ABL: 'Additional packaging',
  LA: 'Labelling',
  FI: 'Financing',
  ADR: 'Other services',
  ABK: 'Miscellaneous',
};

/**
 * Whether one allowance or charge can stand, or the reason it cannot (BR-31..BR-38, BR-41..BR-44):
 * a positive amount of at most 2 decimals and a reason code or text; an allowance's code from
 * UNCL5189, a charge's from UNCL7161 (the list EN 16931's BR-CL-20 checks).
 */
export function allowanceChargeProblem(ac: AllowanceCharge): { field: string; message: string } | undefined {
  if (!/^\d+(\.\d{1,2})?$/.test(ac.amount) || compareDecimal(ac.amount, '0') <= 0)
    return { field: 'amount', message: 'Enter an amount above zero with at most 2 decimals.' };
  const code = ac.reasonCode?.trim() ?? '';
  const reason = ac.reason?.trim() ?? '';
  if (!code && !reason)
    return {
      field: 'reason',
      message: `Say why: a reason code or a reason for the ${ac.isCharge ? 'charge' : 'allowance'}.`,
    };
  if (code && !ac.isCharge && !(ALLOWANCE_REASON_CODES as readonly string[]).includes(code))
    return { field: 'reasonCode', message: 'This is not an allowance reason code (UNCL5189).' };
  if (code && ac.isCharge && !CHARGE_REASON_CODE_SET.has(code))
    return { field: 'reasonCode', message: 'This is not a charge reason code (UNCL7161).' };
  return undefined;
}

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** A field path and why, as the API's 422 lists them (`lines.2.allowanceCharges.0.amount`). */
export interface AllowanceChargeError {
  field: string;
  message: string;
}

/**
 * The ONE rule for a document's allowances and charges (ADR 0049), on every path that writes them
 * (create, edit, issue, credit note, seed) and in the editor: each one valid (`allowanceChargeProblem`),
 * no line's allowances beyond the line (a line net below zero is a negative line, ADR 0029) and no
 * document allowances beyond the lines (a total excl. VAT below zero). Empty when they may stand.
 */
export function allowanceChargeErrors(doc: {
  allowanceCharges?: readonly AllowanceCharge[] | null | undefined;
  lines: readonly Pick<MathLine, 'quantity' | 'unitPrice' | 'allowanceCharges'>[];
}): AllowanceChargeError[] {
  const errors: AllowanceChargeError[] = [];
  let valid = true;
  (doc.allowanceCharges ?? []).forEach((ac, i) => {
    const p = allowanceChargeProblem(ac);
    if (p) {
      valid = false;
      errors.push({ field: `allowanceCharges.${i}.${p.field}`, message: p.message });
    }
  });
  const nets: string[] = [];
  doc.lines.forEach((line, i) => {
    let lineValid = true;
    (line.allowanceCharges ?? []).forEach((ac, j) => {
      const p = allowanceChargeProblem(ac);
      if (p) {
        lineValid = false;
        errors.push({ field: `lines.${i}.allowanceCharges.${j}.${p.field}`, message: p.message });
      }
    });
    if (!lineValid || !DECIMAL.test(line.quantity) || !DECIMAL.test(line.unitPrice)) {
      valid = false;
      return;
    }
    const net = lineNetWithAllowances(line);
    nets.push(net);
    if (compareDecimal(net, '0') < 0)
      errors.push({
        field: `lines.${i}.allowanceCharges`,
        message: `The allowances come to more than the line (${lineNet(line.quantity, line.unitPrice)}): lower them, or credit the invoice instead`,
      });
  });
  if (valid && doc.allowanceCharges?.length) {
    const net = sumDecimal([...nets, allowanceChargeNet(doc.allowanceCharges)]);
    if (compareDecimal(net, '0') < 0)
      errors.push({
        field: 'allowanceCharges',
        message: `The document's allowances come to more than its lines (${sumDecimal(nets)})`,
      });
  }
  return errors;
}

/** UNCL5189's names of the allowance reasons. */
export const ALLOWANCE_REASONS: Readonly<Record<string, string>> = {
  '41': 'Bonus for works ahead of schedule',
  '42': 'Other bonus',
  '60': "Manufacturer's consumer discount",
  '62': 'Due to military status',
  '63': 'Due to work accident',
  '64': 'Special agreement',
  '65': 'Production error discount',
  '66': 'New outlet discount',
  '67': 'Sample discount',
  '68': 'End-of-range discount',
  '70': 'Incoterm discount',
  '71': 'Point of sales threshold allowance',
  '88': 'Material surcharge/deduction',
  '95': 'Discount',
  '100': 'Special rebate',
  '102': 'Fixed long term',
  '103': 'Temporary',
  '104': 'Standard',
  '105': 'Yearly turnover',
};

/** How a document names an allowance or charge: its reason, else its code's wording. */
export function allowanceChargeLabel(ac: AllowanceCharge): string {
  const reason = ac.reason?.trim();
  if (reason) return reason;
  const code = ac.reasonCode?.trim() ?? '';
  if (!ac.isCharge) return ALLOWANCE_REASONS[code] ?? 'Discount';
  return CHARGE_REASONS[code] ?? (code ? `Charge (UNCL7161 ${code})` : 'Surcharge');
}

/** The signed sum: charges add, allowances subtract (2 decimals). */
function allowanceChargeNet(list: readonly AllowanceCharge[]): string {
  return sumDecimal(list.map((ac) => (ac.isCharge ? ac.amount : subtractDecimal('0', ac.amount))));
}

export interface MathLine {
  /** BG-27/BG-28; none on lines stored before allowances and charges existed. */
  allowanceCharges?: readonly AllowanceCharge[];
  quantity: string;
  unitPrice: string;
  vatCode: VatCode;
  /** Percent ('21', '9', '0'); null for O. '21.00' and '21' are the same rate. */
  vatRate: string | null;
  /** When present, the group's exemption reason (BT-120/121) comes from its lines. */
  exemptionReason?: VatExemptionReason | null;
}

/** q × p, rounded half away from zero to 2 decimals (BT-131; Peppol R120 with a base quantity of 1). */
export function lineNet(quantity: string, unitPrice: string): string {
  return multiplyDecimal(quantity, unitPrice, 2);
}

/** BT-131 = q × p (rounded) + line charges − line allowances (EN 16931 BT-131). */
export function lineNetWithAllowances(
  line: Pick<MathLine, 'quantity' | 'unitPrice' | 'allowanceCharges'>,
): string {
  const base = lineNet(line.quantity, line.unitPrice);
  const list = line.allowanceCharges ?? [];
  return list.length === 0 ? base : sumDecimal([base, allowanceChargeNet(list)]);
}

export interface VatGroup {
  vatCode: VatCode;
  /** In its shortest form ('21', '5.5', '0'); null for O. */
  vatRate: string | null;
  taxableAmount: string;
  vatAmount: string;
  exemptionReason: VatExemptionReason | null;
}

export interface DocumentTotals {
  /** Per line, 2 decimals, in the lines' order. */
  lineNets: string[];
  /** BT-106 = Σ line nets (BR-CO-10). */
  lineExtensionAmount: string;
  /** One per (vatCode, vatRate), S by descending rate, then Z, E, AE, O. */
  vatGroups: VatGroup[];
  /** BT-107 = Σ document-level allowances (BR-CO-11). */
  allowanceTotalAmount: string;
  /** BT-108 = Σ document-level charges (BR-CO-12). */
  chargeTotalAmount: string;
  /** BT-109 = BT-106 − BT-107 + BT-108 (BR-CO-13). */
  taxExclusiveAmount: string;
  /** BT-110 = Σ group VAT (BR-CO-14). */
  vatTotal: string;
  /** BT-112 = BT-109 + BT-110 (BR-CO-15). */
  taxInclusiveAmount: string;
  /** BT-115 = BT-112 − paid (BR-CO-16 with prepaid BT-113 = 0: payments are recorded, not prepaid). */
  payableAmount: string;
}

const CODE_ORDER: Readonly<Record<VatCode, number>> = { S: 0, Z: 1, E: 2, AE: 3, K: 4, G: 5, O: 6 };

/** The only reason a code can have, where there is only one (VATEX-EU-AE, -IC, -G, -O). */
const SOLE_REASON: Readonly<Partial<Record<VatCode, VatExemptionReason>>> = {
  AE: 'VATEX-EU-AE',
  K: 'VATEX-EU-IC',
  G: 'VATEX-EU-G',
  O: 'VATEX-EU-O',
};

/** S and Z groups never carry a reason (BR-S-10, BR-Z-10); O carries no rate (BR-O-05). */
function groupRate(line: MathLine): string | null {
  if (line.vatCode === 'O' || line.vatRate === null) return line.vatCode === 'O' ? null : '0';
  return trimDecimal(line.vatRate);
}

/**
 * The totals of a document. `exemptionReasonOf` names each exempt group's reason; without it a
 * group takes the first reason its lines carry, else the code's only reason (AE, O), else none.
 */
export function documentTotals(
  lines: readonly MathLine[],
  exemptionReasonOf?: (code: VatCode) => VatExemptionReason | null,
  paidAmount = '0',
  documentAllowanceCharges: readonly DocumentAllowanceCharge[] = [],
): DocumentTotals {
  const lineNets = lines.map((l) => lineNetWithAllowances(l));
  const groups = new Map<
    string,
    { line: MathLine; rate: string | null; nets: string[]; reason: VatExemptionReason | null }
  >();
  lines.forEach((line, i) => {
    const rate = groupRate(line);
    const key = `${line.vatCode}|${rate ?? ''}`;
    let group = groups.get(key);
    if (!group) {
      group = { line, rate, nets: [], reason: null };
      groups.set(key, group);
    }
    group.nets.push(lineNets[i] as string);
    if (!group.reason && line.exemptionReason) group.reason = line.exemptionReason;
  });
  // BR-CO-18 / BT-116: a document-level allowance or charge counts in its own category's taxable amount.
  for (const ac of documentAllowanceCharges) {
    const asLine: MathLine = { quantity: '1', unitPrice: '0', vatCode: ac.vatCode, vatRate: ac.vatRate };
    const rate = groupRate(asLine);
    const key = `${ac.vatCode}|${rate ?? ''}`;
    let group = groups.get(key);
    if (!group) {
      group = { line: asLine, rate, nets: [], reason: null };
      groups.set(key, group);
    }
    group.nets.push(ac.isCharge ? ac.amount : subtractDecimal('0', ac.amount));
  }

  const vatGroups: VatGroup[] = [...groups.values()].map(({ line, rate, nets, reason }) => {
    const taxableAmount = sumDecimal(nets);
    const exempt = line.vatCode !== 'S' && line.vatCode !== 'Z';
    const exemptionReason = exempt
      ? ((exemptionReasonOf ? exemptionReasonOf(line.vatCode) : reason) ?? SOLE_REASON[line.vatCode] ?? null)
      : null;
    return {
      vatCode: line.vatCode,
      vatRate: rate,
      taxableAmount,
      // BR-CO-17: the group's VAT from its own net, rounded once.
      vatAmount: rate === null ? '0.00' : percentOfDecimal(taxableAmount, rate),
      exemptionReason,
    };
  });
  vatGroups.sort((a, b) => {
    const byCode = CODE_ORDER[a.vatCode] - CODE_ORDER[b.vatCode];
    if (byCode !== 0) return byCode;
    if (a.vatRate === null || b.vatRate === null)
      return a.vatRate === b.vatRate ? 0 : a.vatRate === null ? 1 : -1;
    return compareDecimal(b.vatRate, a.vatRate);
  });

  const lineExtensionAmount = sumDecimal(lineNets);
  const allowanceTotalAmount = sumDecimal(
    documentAllowanceCharges.filter((ac) => !ac.isCharge).map((ac) => ac.amount),
  );
  const chargeTotalAmount = sumDecimal(
    documentAllowanceCharges.filter((ac) => ac.isCharge).map((ac) => ac.amount),
  );
  const taxExclusiveAmount = sumDecimal([
    lineExtensionAmount,
    chargeTotalAmount,
    subtractDecimal('0', allowanceTotalAmount),
  ]);
  const vatTotal = sumDecimal(vatGroups.map((g) => g.vatAmount));
  const taxInclusiveAmount = sumDecimal([taxExclusiveAmount, vatTotal]);
  return {
    lineNets,
    lineExtensionAmount,
    vatGroups,
    allowanceTotalAmount,
    chargeTotalAmount,
    taxExclusiveAmount,
    vatTotal,
    taxInclusiveAmount,
    payableAmount: subtractDecimal(taxInclusiveAmount, paidAmount),
  };
}

export interface CurrencyTotal {
  currency: string;
  net: string;
  /** VAT per rate group of this currency's lines; '0.00' for lines that carry no VAT code. */
  vat: string;
  gross: string;
}

/**
 * An offer's totals, one per currency in the order the currencies first appear (an offer may quote
 * freight in USD and handling in EUR; amounts of different currencies are never added up).
 */
export function totalsPerCurrency(
  lines: readonly {
    quantity: string;
    unitPrice: string;
    currency: string;
    vatCode?: VatCode;
    vatRate?: string | null;
  }[],
): CurrencyTotal[] {
  const byCurrency = new Map<string, MathLine[]>();
  for (const l of lines) {
    const currency = l.currency.trim().toUpperCase();
    const list = byCurrency.get(currency) ?? [];
    // A line without a VAT code counts at 0 % so `net` stays right for callers that only need it.
    list.push({
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      vatCode: l.vatCode ?? 'Z',
      vatRate: l.vatCode ? (l.vatRate ?? null) : '0',
    });
    byCurrency.set(currency, list);
  }
  return [...byCurrency].map(([currency, ls]) => {
    const t = documentTotals(ls);
    return { currency, net: t.lineExtensionAmount, vat: t.vatTotal, gross: t.taxInclusiveAmount };
  });
}

/** An amount in the base currency: amount × exchange rate (base per unit), 2 decimals (art. 230). */
export function toBaseCurrency(amount: string, exchangeRate: string): string {
  return multiplyDecimal(amount, exchangeRate, 2);
}
