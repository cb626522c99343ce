import type { HandlingUnitNode, StockRecordListItem } from '@fvg/contracts';
import { createPortal } from 'react-dom';
import { Gs1_128 } from '../../../components/barcode/index.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { formatQuantity } from '../api/stock-meta.ts';
import classes from './pallet-labels.module.css';

export interface PalletLabelProps {
  stock: Pick<StockRecordListItem, 'owner' | 'sku' | 'description' | 'unit' | 'receivedOn' | 'receipt'>;
  pallet: Pick<HandlingUnitNode, 'id' | 'sscc' | 'quantity' | 'location'>;
}

/** One A6 label: who owns it, what it is, how much, where, since when, and the SSCC to scan. */
export function PalletLabel({ stock, pallet }: PalletLabelProps) {
  return (
    <section
      className={classes.label}
      data-testid="pallet-label"
      aria-label={`Pallet label ${pallet.sscc ?? ''}`}
    >
      <div className={classes.row}>
        <span className={classes.caption}>Owner</span>
        <span className={classes.owner}>{stock.owner.name}</span>
      </div>
      <div className={classes.row}>
        <span className={classes.caption}>Article</span>
        <span className={classes.sku}>{stock.sku}</span>
        <span className={classes.description}>{stock.description}</span>
      </div>
      <div className={classes.grid}>
        <div>
          <span className={classes.caption}>Quantity</span>
          <span className={classes.big} data-testid="pallet-label-quantity">
            {formatQuantity(pallet.quantity, stock.unit)}
          </span>
        </div>
        <div>
          <span className={classes.caption}>Location</span>
          <span className={classes.big}>{pallet.location}</span>
        </div>
        <div>
          <span className={classes.caption}>Received</span>
          <span>{formatDate(stock.receivedOn)}</span>
        </div>
        <div>
          <span className={classes.caption}>Receipt</span>
          <span>{stock.receipt.number}</span>
        </div>
      </div>
      <div className={classes.barcode}>
        <span className={classes.caption}>SSCC</span>
        {pallet.sscc ? <Gs1_128 sscc={pallet.sscc} height="28mm" testId="pallet-label-barcode" /> : null}
      </div>
    </section>
  );
}

export interface PalletLabelSheetProps {
  stock: PalletLabelProps['stock'];
  pallets: readonly PalletLabelProps['pallet'][];
}

/**
 * The labels to print, outside the app's root (a portal into body): the print style sheet then hides
 * every other child of body, so nothing of the shell or the screen reaches the paper. On screen the
 * sheet is not shown.
 */
export function PalletLabelSheet({ stock, pallets }: PalletLabelSheetProps) {
  return createPortal(
    <div className={classes.sheet} data-testid="pallet-label-sheet">
      {pallets.map((pallet) => (
        <PalletLabel key={pallet.id} stock={stock} pallet={pallet} />
      ))}
    </div>,
    document.body,
  );
}
