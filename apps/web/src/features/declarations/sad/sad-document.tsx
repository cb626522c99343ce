import {
  ADDITIONAL_INFORMATION_LABELS,
  AUTHORISATION_TYPE_LABELS,
  customsValueBuildUp,
  type Declaration,
  type DeclarationDocumentRef,
  type DeclarationItem,
  type DeclarationParty,
  formatCommodityCode,
  GUARANTEE_TYPE_LABELS,
  hasAdjustments,
  METHOD_OF_PAYMENT_LABELS,
  PACKAGE_KIND_LABELS,
  PREVIOUS_DOCUMENT_TYPE_LABELS,
  REPRESENTATIVE_STATUS_LABELS,
  SAD_BOX1,
  SANDBOX_LABEL,
  SUPPORTING_DOCUMENT_TYPE_LABELS,
  sumDecimal,
  supplementaryUnitOf,
  TAX_TYPE_LABELS,
  type TaxLine,
  taxLines,
  VALUATION_METHOD_LABELS,
} from '@fvg/contracts';
import type { ReactNode } from 'react';
import { formatMoney, formatNumber } from '../../../lib/format.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { transportModeLabel } from '../components/declaration-meta.ts';
import classes from './sad.module.css';
import { sadSheets } from './sad-pages.ts';

/*
 * The declaration laid out as the Single Administrative Document (domain-standards.md "Customs
 * declarations"): numbered boxes like the paper form, one A4 sheet per up to three items (sad-pages.ts).
 * Sizes are in millimetres so the sheet on screen is the sheet on paper; sad.module.css prints it.
 * Codes stay codes where the form prints codes (countries, offices, commodity and procedure codes);
 * where the form means something (transport modes, package kinds, guarantee types, documents) the
 * meaning follows the code.
 */

const blank = (v: string | null | undefined) => v === null || v === undefined || v.trim() === '';
const kg = (v: string | null) =>
  blank(v) ? '' : `${formatNumber(v as `${number}`, { maximumFractionDigits: 3 })} kg`;
const eur = (v: string | null) => (blank(v) ? '' : formatMoney(v as `${number}`, { currency: 'EUR' }));
const percent = (v: string | null) =>
  blank(v) ? '' : `${formatNumber(v as `${number}`, { maximumFractionDigits: 3 })} %`;
const codeWith = (code: string | null, label: string | null | undefined) =>
  blank(code) ? '' : label ? `${code} · ${label}` : (code as string);
const labelOf = <K extends string>(labels: Readonly<Record<K, string>>, code: string | null) =>
  code && code in labels ? labels[code as K] : null;

interface BoxProps {
  /** The box number as printed on the form ("15a", "C"). */
  n: string;
  title: string;
  children?: ReactNode;
  /** Extra class: widths and growth inside its row. */
  className?: string | undefined;
  /** A word at the right of the label line, e.g. "Estimate". */
  aside?: string | undefined;
}

function Box({ n, title, children, className, aside }: BoxProps) {
  return (
    <div className={`${classes.box} ${className ?? ''}`} data-testid={`sad-box-${n}`}>
      <div className={classes.label}>
        <span className={classes.number}>{n}</span> <span className={classes.title}>{title}</span>
        {aside && <span className={classes.aside}>{aside}</span>}
      </div>
      <div className={classes.value} data-testid={`sad-box-${n}-value`}>
        {children}
      </div>
    </div>
  );
}

function Party({ party }: { party: DeclarationParty | null }) {
  if (!party) return null;
  const place = [party.postalCode, party.city].filter((p) => !blank(p)).join(' ');
  return (
    <>
      {!blank(party.eori) && (
        <div className={classes.partyNo}>
          <span className={classes.inlineLabel}>No</span> {party.eori}
        </div>
      )}
      <div className={classes.strong}>{party.name}</div>
      {!blank(party.street) && <div>{party.street}</div>}
      {(place || !blank(party.countryCode)) && (
        <div>
          {place}
          {place && !blank(party.countryCode) ? '  ' : ''}
          {party.countryCode}
        </div>
      )}
    </>
  );
}

function Means({ identity, country }: { identity: string | null; country: string | null }) {
  return (
    <>
      {identity}
      {!blank(country) && (
        <span className={classes.sub}>
          <span className={classes.inlineLabel}>Nationality</span> {country}
        </span>
      )}
    </>
  );
}

function Box1({ declaration }: { declaration: Declaration }) {
  const code = SAD_BOX1[declaration.category];
  // Three subdivisions like the form: IM/EX and the declaration type A (standard) for import and
  // export; the transit procedure (T1/T2) in the third.
  const cells = declaration.type === 'transit' ? ['', '', code] : [code, 'A', ''];
  return (
    <Box n="1" title="Declaration" className={classes.grow}>
      <div className={classes.subdivisions}>
        {cells.map((cell, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the three subdivisions are fixed
          <span key={i} className={classes.subdivision}>
            {cell}
          </span>
        ))}
      </div>
    </Box>
  );
}

function DocumentList({
  documents,
  labels,
}: {
  documents: readonly DeclarationDocumentRef[];
  labels: Readonly<Record<string, string>>;
}) {
  return (
    <div className={classes.clamp2}>
      {documents.map((d, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: references may repeat; the order is the item's
        <div key={i}>
          {codeWith(d.type, labelOf(labels, d.type))} — {d.reference}
        </div>
      ))}
    </div>
  );
}

function Taxes({ declaration, item }: { declaration: Declaration; item: DeclarationItem }) {
  if (declaration.type !== 'import') return <span className={classes.muted}>No import duties or taxes</span>;
  const e = item.estimate;
  if (!e)
    return (
      <span className={classes.muted}>No estimate: the customs value, duty rate and VAT rate are needed</span>
    );
  // The lines as lodged: tax type (DE 4/3), base, rate, amount and method of payment (DE 4/8, "MP").
  const [duty, vat] = taxLines(e, declaration.methodOfPayment);
  const row = (line: TaxLine | undefined, testId: string) =>
    line && (
      <tr data-testid={testId}>
        <td>
          {line.type} {TAX_TYPE_LABELS[line.type]}
        </td>
        <td>{eur(line.base)}</td>
        <td>{percent(line.rate)}</td>
        <td>{eur(line.amount)}</td>
        <td title={line.methodOfPayment ? METHOD_OF_PAYMENT_LABELS[line.methodOfPayment] : 'Not chosen yet'}>
          {line.methodOfPayment ?? '—'}
        </td>
      </tr>
    );
  return (
    <table className={classes.taxes} data-testid="sad-taxes">
      <thead>
        <tr>
          <th>Type</th>
          <th>Tax base</th>
          <th>Rate</th>
          <th>Amount</th>
          <th>MP</th>
        </tr>
      </thead>
      <tbody>
        {row(duty, 'sad-tax-duty')}
        {row(vat, 'sad-tax-vat')}
        <tr className={classes.taxTotal}>
          <td colSpan={3}>Total</td>
          <td>{eur(e.total)}</td>
          <td />
        </tr>
      </tbody>
    </table>
  );
}

/** Box 41: the quantity in the unit the CN code asks for (DE 6/2). */
function units(item: DeclarationItem): string {
  if (blank(item.supplementaryUnits)) return '';
  const unit = supplementaryUnitOf(item.commodityCode);
  const n = formatNumber(item.supplementaryUnits as `${number}`, { maximumFractionDigits: 3 });
  return unit ? `${n} ${unit.symbol}` : n;
}

/**
 * Box 45 by item id: each item's share of the consignment's additions less its deductions (DE 4/9), when the
 * customs value is built from the invoice (customs-value.ts); empty otherwise.
 */
function adjustmentsOf(d: Declaration): Map<string, string> {
  const out = new Map<string, string>();
  if (d.type !== 'import' || !hasAdjustments(d)) return out;
  const rate = d.currency === 'EUR' ? (d.exchangeRate ?? '1') : d.exchangeRate;
  // Once per declaration: every item's share comes from the one split.
  customsValueBuildUp(d.items, rate, d, d.apportionment ?? 'value')?.forEach((line, i) => {
    const item = d.items[i];
    if (item) out.set(item.id, eur(sumDecimal([line.additions, `-${line.deductions}`])));
  });
  return out;
}

/** Box 42: the item's price in the invoice currency. */
function money(value: string | null, currency: string | null): string {
  return blank(value) ? '' : formatMoney(value as `${number}`, { currency: currency ?? 'EUR' });
}

/** The declaration's statements (DE 2/2) and authorisations (DE 2/3), as box 44 lists them. */
function HeaderReferences({ declaration: d }: { declaration: Declaration }) {
  if (d.additionalInformation.length === 0 && d.authorisations.length === 0) return null;
  return (
    <div data-testid="sad-header-references">
      {d.additionalInformation.map((a) => (
        <div key={`${a.code}-${a.text}`}>
          <span className={classes.mono}>{a.code}</span>{' '}
          {a.text ?? ADDITIONAL_INFORMATION_LABELS[a.code] ?? ''}
        </div>
      ))}
      {d.authorisations.map((a) => (
        <div key={`${a.type}-${a.reference}`}>
          <span className={classes.mono}>{a.type}</span> {labelOf(AUTHORISATION_TYPE_LABELS, a.type)}:{' '}
          <span className={classes.mono}>{a.reference}</span>
        </div>
      ))}
    </div>
  );
}

function ItemBoxes({
  declaration,
  item,
  adjustment,
}: {
  declaration: Declaration;
  item: DeclarationItem;
  /** Box 45, worked out once for the declaration. */
  adjustment: string;
}) {
  const kind = labelOf(PACKAGE_KIND_LABELS, item.packageKind);
  const packages = [
    item.packages === null ? '' : formatNumber(item.packages),
    item.packageKind ? (kind ? `${kind} (${item.packageKind})` : item.packageKind) : '',
  ]
    .filter(Boolean)
    .join(' × ');
  return (
    <div className={classes.block} data-testid={`sad-item-${item.position}`}>
      <div className={classes.left}>
        <Box n="31" title="Packages and description of goods" className={classes.grow}>
          <dl className={classes.lines}>
            <dt>Marks and numbers</dt>
            <dd className={classes.clamp2}>{item.marks}</dd>
            <dt>Number and kind</dt>
            <dd>{packages}</dd>
            {item.containers.length > 0 && (
              <>
                <dt>Containers</dt>
                <dd className={classes.clamp2}>{item.containers.join(', ')}</dd>
              </>
            )}
            <dt>Description</dt>
            <dd className={classes.clamp}>{item.description}</dd>
          </dl>
        </Box>
        <div className={classes.row}>
          <Box n="40" title="Previous document" className={classes.grow}>
            <DocumentList documents={item.previousDocuments} labels={PREVIOUS_DOCUMENT_TYPE_LABELS} />
          </Box>
          <Box n="44" title="Additional information / documents produced" className={classes.grow}>
            <DocumentList documents={item.supportingDocuments} labels={SUPPORTING_DOCUMENT_TYPE_LABELS} />
            {/* The header's statements and authorisations (DE 2/2, 2/3), once, on the first item. */}
            {item.position === 1 && <HeaderReferences declaration={declaration} />}
          </Box>
        </div>
        <Box n="49" title="Identification of warehouse">
          {declaration.warehouseReference}
        </Box>
      </div>
      <div className={classes.right}>
        <div className={classes.row}>
          <Box n="32" title="Item No" className={classes.w2}>
            <span className={classes.big}>{item.position}</span>
          </Box>
          <Box n="33" title="Commodity code" className={classes.grow}>
            <span className={classes.big}>
              {item.commodityCode ? formatCommodityCode(item.commodityCode) : ''}
            </span>
          </Box>
        </div>
        <div className={classes.row}>
          <Box n="34" title="Origin" className={classes.w2}>
            {item.countryOfOrigin}
          </Box>
          <Box n="35" title="Gross mass" className={classes.grow}>
            {kg(item.grossMassKg)}
          </Box>
          <Box n="36" title="Pref." className={classes.w2}>
            {item.preference}
          </Box>
        </div>
        <div className={classes.row}>
          <Box n="37" title="Procedure" className={classes.w2}>
            {item.procedureCode}
            {item.additionalProcedureCodes.length > 0 && (
              <div className={classes.mono} data-testid={`sad-additional-procedure-${item.position}`}>
                {item.additionalProcedureCodes.join(' ')}
              </div>
            )}
          </Box>
          <Box n="38" title="Net mass" className={classes.grow}>
            {kg(item.netMassKg)}
          </Box>
          <Box n="46" title="Statistical value" className={classes.w3}>
            {eur(item.statisticalValue)}
          </Box>
        </div>
        <div className={classes.row}>
          <Box n="41" title="Supplementary units" className={classes.w3}>
            <span data-testid={`sad-units-${item.position}`}>{units(item)}</span>
          </Box>
          <Box n="42" title="Item price" className={classes.grow}>
            {money(item.invoiceValue, declaration.currency)}
          </Box>
          <Box n="43" title="V.M." className={classes.w2}>
            <span title={labelOf(VALUATION_METHOD_LABELS, item.valuationMethod) ?? undefined}>
              {item.valuationMethod}
            </span>
          </Box>
          <Box n="45" title="Adjustment" className={classes.w3}>
            <span data-testid={`sad-adjustment-${item.position}`}>{adjustment}</span>
          </Box>
        </div>
        <Box
          n="47"
          title="Calculation of taxes"
          className={classes.grow}
          aside={declaration.type === 'import' && item.estimate ? 'Estimate' : undefined}
        >
          <Taxes declaration={declaration} item={item} />
        </Box>
      </div>
    </div>
  );
}

function HeaderBoxes({
  declaration,
  sheet,
  sheets,
}: {
  declaration: Declaration;
  sheet: number;
  sheets: number;
}) {
  const d = declaration;
  const representativeStatus = labelOf(REPRESENTATIVE_STATUS_LABELS, d.representativeStatus);
  return (
    <div className={classes.block} data-testid="sad-header">
      <div className={classes.left}>
        <Box n="2" title="Consignor / Exporter" className={classes.party}>
          <Party party={d.consignor} />
        </Box>
        <Box n="8" title="Consignee" className={classes.party}>
          <Party party={d.consignee} />
        </Box>
        <Box n="14" title="Declarant / Representative" className={`${classes.party} ${classes.grow}`}>
          <Party party={d.representative ?? d.declarant} />
          {d.representative && d.declarant && (
            <div className={classes.sub}>
              <span className={classes.inlineLabel}>For</span> {d.declarant.name}
              {!blank(d.declarant.eori) && ` (${d.declarant.eori})`}
            </div>
          )}
          {d.representativeStatus && (
            <div className={classes.sub} data-testid="sad-representation">
              <span className={classes.inlineLabel}>Status</span>{' '}
              {codeWith(d.representativeStatus, representativeStatus)}
            </div>
          )}
        </Box>
        <div className={classes.row}>
          <Box
            n="18"
            title="Identity and nationality of means of transport at departure"
            className={classes.grow}
          >
            <Means identity={d.meansAtDeparture} country={d.meansAtDepartureCountry} />
          </Box>
          <Box n="19" title="Ctr." className={classes.w2}>
            {d.containerIndicator ? '1 · yes' : '0 · no'}
          </Box>
        </div>
        <Box n="21" title="Identity and nationality of active means of transport crossing the border">
          <Means identity={d.meansAtBorder} country={d.meansAtBorderCountry} />
        </Box>
        <div className={classes.row}>
          <Box n="25" title="Mode of transport at the border" className={classes.grow}>
            {codeWith(d.transportModeBorder, transportModeLabel(d.transportModeBorder))}
          </Box>
          <Box n="26" title="Inland mode of transport" className={classes.grow}>
            {codeWith(d.transportModeInland, transportModeLabel(d.transportModeInland))}
          </Box>
        </div>
      </div>
      <div className={classes.right}>
        <Box1 declaration={d} />
        <div className={classes.row}>
          <Box n="3" title="Forms" className={classes.w2}>
            {sheet} / {sheets}
          </Box>
          <Box n="5" title="Items" className={classes.w2}>
            {d.items.length}
          </Box>
          <Box n="6" title="Total packages" className={classes.w2}>
            {d.items.length ? formatNumber(d.totals.packages) : ''}
          </Box>
          <Box n="7" title="Reference number" className={classes.grow}>
            <span className={classes.mono}>{d.lrn}</span>
          </Box>
        </div>
        <Box n="C" title={d.type === 'transit' ? 'Office of departure' : 'Office of lodgement'}>
          <span className={classes.mono}>{d.officeOfLodgement}</span>
        </Box>
        <div className={classes.row}>
          <Box n="15a" title="C. disp./exp. code" className={classes.grow}>
            {d.countryOfDispatch}
          </Box>
          <Box n="17a" title="C. destination code" className={classes.grow}>
            {d.countryOfDestination}
          </Box>
        </div>
        <div className={classes.row}>
          <Box n="20" title="Delivery terms" className={classes.grow}>
            {[d.incoterm, d.incotermPlace].filter((p) => !blank(p)).join(' ')}
          </Box>
          <Box n="24" title="Nature of transaction" className={classes.w3}>
            {d.natureOfTransaction}
          </Box>
        </div>
        <div className={classes.row}>
          <Box n="22" title="Currency and total amount invoiced" className={classes.grow}>
            {!blank(d.currency) && (
              <>
                <span className={classes.mono}>{d.currency}</span>{' '}
                {blank(d.invoiceTotal)
                  ? ''
                  : formatMoney(d.invoiceTotal as `${number}`, { currency: d.currency as string })}
              </>
            )}
          </Box>
          <Box n="23" title="Exchange rate" className={classes.w3}>
            {!blank(d.exchangeRate) && (
              <>
                {formatNumber(d.exchangeRate as `${number}`, { maximumFractionDigits: 6 })}
                {!blank(d.currency) && <span className={classes.sub}>EUR per {d.currency}</span>}
              </>
            )}
          </Box>
        </div>
        <Box n="29" title={d.type === 'import' ? 'Office of entry' : 'Office of exit'}>
          <span className={classes.mono}>{d.officeOfExitEntry}</span>
        </Box>
        <Box n="30" title="Location of goods" className={classes.grow}>
          {(d.locationOfGoodsType || d.locationOfGoodsQualifier) && (
            <span className={classes.mono} title="Type of location and qualifier (DE 5/23)">
              {d.locationOfGoodsType}
              {d.locationOfGoodsQualifier}{' '}
            </span>
          )}
          {d.locationOfGoods}
        </Box>
      </div>
    </div>
  );
}

/** Continuation sheets repeat what identifies the declaration: boxes 1, 3 and 7 (the MRN is on top). */
function SummaryBoxes({
  declaration,
  sheet,
  sheets,
}: {
  declaration: Declaration;
  sheet: number;
  sheets: number;
}) {
  return (
    <div className={classes.row} data-testid="sad-summary">
      <Box1 declaration={declaration} />
      <Box n="3" title="Forms" className={classes.w3}>
        {sheet} / {sheets}
      </Box>
      <Box n="7" title="Reference number" className={classes.grow}>
        <span className={classes.mono}>{declaration.lrn}</span>
      </Box>
    </div>
  );
}

function TransitBoxes({ declaration: d }: { declaration: Declaration }) {
  const guarantee = labelOf(GUARANTEE_TYPE_LABELS, d.guaranteeType);
  return (
    <div className={classes.block} data-testid="sad-transit">
      <div className={classes.left}>
        <Box n="50" title="Principal" className={`${classes.party} ${classes.grow}`}>
          <Party party={d.holder} />
        </Box>
      </div>
      <div className={classes.right}>
        <Box n="51" title="Intended offices of transit (and country)">
          <span className={classes.mono}>{d.officesOfTransit.join('  ')}</span>
        </Box>
        <Box n="52" title="Guarantee">
          {d.guaranteeType && <div>{codeWith(d.guaranteeType, guarantee)}</div>}
          {!blank(d.guaranteeReference) && (
            <div>
              <span className={classes.inlineLabel}>GRN</span>{' '}
              <span className={classes.mono}>{d.guaranteeReference}</span>
            </div>
          )}
          {!blank(d.guaranteeAmount) && (
            <div>
              <span className={classes.inlineLabel}>Amount</span> {eur(d.guaranteeAmount)}
            </div>
          )}
        </Box>
        <Box n="53" title="Office of destination (and country)" className={classes.grow}>
          <span className={classes.mono}>{d.officeOfDestination}</span>
        </Box>
        <Box n="D" title="Control by office of departure" className={classes.grow}>
          <div data-testid="sad-seals">
            <span className={classes.inlineLabel}>Seals affixed</span> {d.seals.length}
            {d.seals.length > 0 && (
              <>
                {' · '}
                <span className={classes.mono}>{d.seals.map((s) => s.identifier).join(', ')}</span>
              </>
            )}
          </div>
          {!blank(d.limitDate) && (
            <div data-testid="sad-limit-date">
              <span className={classes.inlineLabel}>Time limit</span> {formatDate(d.limitDate)}
            </div>
          )}
        </Box>
      </div>
    </div>
  );
}

/**
 * Box B, accounting details: what the office books. An import: the duties and taxes by type and how
 * they are paid (DE 4/8), with the deferment authorisation when deferred; a transit: the guarantee that
 * secures the reference amount; an export owes nothing.
 */
function AccountingBox({ declaration: d }: { declaration: Declaration }) {
  const t = d.totals;
  const deferment = d.authorisations.find((a) => a.type === 'C506');
  return (
    <Box n="B" title="Accounting details" className={classes.grow}>
      <div data-testid="sad-accounting">
        {d.type === 'import' ? (
          t.dutyAndVat === null ? (
            <span className={classes.muted}>No estimate of the duties and taxes yet</span>
          ) : (
            <>
              <div>
                <span className={classes.inlineLabel}>A00</span> {eur(t.duty)}{' '}
                <span className={classes.inlineLabel}>B00</span> {eur(t.vat)}{' '}
                <span className={classes.inlineLabel}>Total</span> <strong>{eur(t.dutyAndVat)}</strong>
              </div>
              <div>
                <span className={classes.inlineLabel}>MP</span>{' '}
                {d.methodOfPayment
                  ? codeWith(d.methodOfPayment, METHOD_OF_PAYMENT_LABELS[d.methodOfPayment])
                  : 'not chosen yet'}
                {d.methodOfPayment === 'E' && deferment && (
                  <>
                    {' · '}
                    <span className={classes.mono}>{deferment.reference}</span>
                  </>
                )}
              </div>
            </>
          )
        ) : d.type === 'transit' ? (
          d.guaranteeType ? (
            <div>
              <span className={classes.inlineLabel}>Guarantee</span> {d.guaranteeType}
              {!blank(d.guaranteeReference) && (
                <>
                  {' · '}
                  <span className={classes.mono}>{d.guaranteeReference}</span>
                </>
              )}
              {!blank(d.guaranteeAmount) && <> · {eur(d.guaranteeAmount)}</>}
            </div>
          ) : (
            <span className={classes.muted}>No guarantee yet</span>
          )
        ) : (
          <span className={classes.muted}>No duties or taxes on export</span>
        )}
      </div>
    </Box>
  );
}

function SignatureBox({ declaration }: { declaration: Declaration | null }) {
  return (
    <div className={classes.row}>
      {declaration ? <AccountingBox declaration={declaration} /> : <div className={classes.spacer} />}
      <Box
        n="54"
        title="Place and date; signature and name of the declarant / representative"
        className={classes.signature}
      >
        <div className={classes.signLine}>Place and date</div>
        <div className={classes.signLine}>Signature and name</div>
      </Box>
    </div>
  );
}

export interface SadDocumentProps {
  declaration: Declaration;
  /** The route's type tag ("import"): printed near box 1 of every sheet. */
  tag: string;
}

/** Every sheet of the declaration's SAD, on screen as paper sheets and printed one per A4 page. */
export function SadDocument({ declaration, tag }: SadDocumentProps) {
  const sheets = sadSheets(declaration.items);
  const adjustments = adjustmentsOf(declaration);
  const sandbox = declaration.gateway.sandbox;
  return (
    <div className={classes.document} data-testid="sad-document">
      {sheets.map((sheet) => (
        <section
          key={sheet.number}
          className={classes.sheet}
          data-testid="sad-sheet"
          aria-label={`Sheet ${sheet.number} of ${sheets.length}`}
        >
          {sandbox && (
            <>
              <div className={classes.watermark} aria-hidden>
                SANDBOX
              </div>
              <div className={classes.band} data-testid="sad-sandbox">
                SANDBOX · {SANDBOX_LABEL}
              </div>
            </>
          )}
          <header className={classes.top}>
            <div>
              <div className={classes.union}>European Union</div>
              <div className={classes.formName}>Single Administrative Document</div>
              <div className={classes.muted}>
                {sheet.first ? 'Form 1' : 'Continuation form (BIS)'} · sheet {sheet.number} of {sheets.length}
              </div>
            </div>
            <div className={classes.identity}>
              <span className={classes.tag} data-testid="sad-type-tag">
                {tag}
              </span>
              <div>
                <span className={classes.inlineLabel}>MRN</span>{' '}
                <span className={classes.mrn} data-testid="sad-mrn">
                  {declaration.mrn ?? 'not allocated yet'}
                </span>
              </div>
              {declaration.acceptedAt && (
                <div className={classes.muted}>Accepted {formatDate(declaration.acceptedAt)}</div>
              )}
            </div>
          </header>
          {sheet.first ? (
            <HeaderBoxes declaration={declaration} sheet={sheet.number} sheets={sheets.length} />
          ) : (
            <SummaryBoxes declaration={declaration} sheet={sheet.number} sheets={sheets.length} />
          )}
          {sheet.items.map((item) => (
            <ItemBoxes
              key={item.id}
              declaration={declaration}
              item={item}
              adjustment={adjustments.get(item.id) ?? ''}
            />
          ))}
          {sheet.first && declaration.items.length === 0 && (
            <p className={classes.muted} data-testid="sad-no-items">
              No goods items yet.
            </p>
          )}
          {sheet.first && declaration.type === 'transit' && <TransitBoxes declaration={declaration} />}
          <div className={classes.fill} />
          <SignatureBox declaration={sheet.first ? declaration : null} />
        </section>
      ))}
    </div>
  );
}
