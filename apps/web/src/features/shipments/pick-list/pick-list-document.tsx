import {
  DECLARATION_STATUS_LABELS,
  OUTBOUND_PROCEDURE_LABELS,
  SHIPMENT_STATUS_LABELS,
  type Shipment,
} from '@fvg/contracts';
import { Code128, Gs1_128 } from '../../../components/barcode/index.ts';
import { formatNumber } from '../../../lib/format.ts';
import { formatDate, formatDateTime } from '../../../lib/format-date.ts';
import classes from './pick-list.module.css';
import { packingSummary, pickQuantity, pickRows } from './pick-list-model.ts';

export interface PickListDocumentProps {
  shipment: Shipment;
  /** When the list was produced (printed on it, so an old paper is recognised). */
  printedAt: string;
}

function Field({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  const empty = children === null || children === undefined || children === '';
  return (
    <div className={classes.field} data-testid={testId}>
      <span className={classes.caption}>{label}</span>
      <span className={classes.value}>{empty ? '—' : children}</span>
    </div>
  );
}

/** The pick and packing list of a shipment: one A4 document, what the warehouse walks with. */
export function PickListDocument({ shipment, printedAt }: PickListDocumentProps) {
  const rows = pickRows(shipment);
  const summary = packingSummary(rows);
  const draft = shipment.status === 'draft';
  const consignee = shipment.consignee?.name ?? shipment.consigneeName;
  const declaration = shipment.declaration;

  return (
    <article
      className={classes.document}
      data-testid="pick-list"
      aria-label={`Pick and packing list ${shipment.number}`}
    >
      <header className={classes.header}>
        <div className={classes.titleBlock}>
          <h1 className={classes.title}>Pick and packing list</h1>
          <span className={classes.number} data-testid="pick-list-number">
            {shipment.number}
          </span>
          <span className={classes.status}>{SHIPMENT_STATUS_LABELS[shipment.status]}</span>
        </div>
        <Code128 value={shipment.number} height="14mm" testId="pick-list-barcode" />
      </header>

      <section className={classes.fields} data-testid="pick-list-header">
        <Field label="Owner">{shipment.owner.name}</Field>
        <Field label="Consignee">{consignee}</Field>
        <Field label="Delivery address">
          <span className={classes.address}>{shipment.deliveryAddress}</span>
        </Field>
        <Field label="Planned date">{shipment.plannedDate ? formatDate(shipment.plannedDate) : null}</Field>
        <Field label="Customer reference">{shipment.customerReference}</Field>
        <Field label="Outbound procedure">
          {shipment.outboundProcedure ? OUTBOUND_PROCEDURE_LABELS[shipment.outboundProcedure] : null}
        </Field>
        <Field label="Outbound declaration" testId="pick-list-declaration">
          {declaration
            ? [
                declaration.lrn,
                declaration.mrn ? `MRN ${declaration.mrn}` : null,
                DECLARATION_STATUS_LABELS[declaration.status],
              ]
                .filter(Boolean)
                .join(' · ')
            : shipment.nonUnion
              ? 'Needed, not created yet'
              : null}
        </Field>
        <Field label="Printed at" testId="pick-list-printed-at">
          {formatDateTime(printedAt)}
        </Field>
      </section>

      {draft && (
        <p className={classes.notice} role="note" data-testid="pick-list-draft">
          Not released yet — quantities are not reserved
        </p>
      )}
      {shipment.status === 'cancelled' && (
        <p className={classes.notice} role="note" data-testid="pick-list-cancelled">
          This shipment is cancelled — nothing to pick
        </p>
      )}

      {rows.length > 0 && (
        <table className={classes.picks} data-testid="pick-list-rows">
          <thead>
            <tr>
              <th className={classes.numCol}>#</th>
              <th>Location</th>
              <th>Article</th>
              <th>Handling unit</th>
              <th className={classes.qtyCol}>To pick</th>
              <th className={classes.checkCol}>Picked</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => (
              <tr key={row.key} data-testid="pick-row" data-location={row.location ?? ''}>
                <td className={classes.numCol}>{i + 1}</td>
                <td className={classes.location} data-testid="pick-row-location">
                  {row.location ?? '—'}
                </td>
                <td>
                  <span className={classes.sku}>{row.sku}</span>
                  <span className={classes.description}>{row.description}</span>
                  {row.receiptNumber && <span className={classes.small}>Receipt {row.receiptNumber}</span>}
                </td>
                <td className={classes.unitCell} data-testid="pick-row-unit">
                  {row.sscc ? (
                    <Gs1_128 sscc={row.sscc} height="10mm" testId="pick-row-sscc" />
                  ) : row.reference ? (
                    <span className={classes.sku}>{row.reference}</span>
                  ) : draft ? (
                    <span className={classes.small}>Chosen on release</span>
                  ) : (
                    <span>Loose</span>
                  )}
                </td>
                <td className={classes.qtyCol} data-testid="pick-row-quantity">
                  {pickQuantity(row.quantity, row.unit)}
                </td>
                <td className={classes.checkCol}>
                  <span
                    className={classes.checkbox}
                    role="img"
                    aria-label={row.picked ? 'Picked' : 'To tick when picked'}
                    data-checked={row.picked || undefined}
                  >
                    {row.picked ? '✓' : ''}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <section className={classes.packing} data-testid="pick-list-packing">
        <h2 className={classes.sectionTitle}>Packing</h2>
        <div className={classes.fields}>
          <Field label="Total quantity" testId="packing-total">
            {summary.total}
          </Field>
          <Field label="Handling units" testId="packing-units">
            {draft ? 'Chosen on release' : formatNumber(summary.handlingUnits)}
          </Field>
          <Field label="Loose picks" testId="packing-loose">
            {draft ? '—' : formatNumber(summary.loosePicks)}
          </Field>
          <Field label="Packages after packing">
            <span className={classes.blank} />
          </Field>
          <Field label="Gross weight (kg)">
            <span className={classes.blank} />
          </Field>
        </div>
      </section>

      <section className={classes.signatures} data-testid="pick-list-signatures">
        {['Picked by', 'Checked by', 'Driver', 'Date'].map((label) => (
          <div key={label} className={classes.signature}>
            <span className={classes.caption}>{label}</span>
          </div>
        ))}
      </section>
    </article>
  );
}
