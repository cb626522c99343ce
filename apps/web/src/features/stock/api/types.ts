/* The stock area's wire types: the contract's (packages/contracts/src/stock.ts), under one import for the area. */
export type {
  HandlingUnit,
  HandlingUnitInput,
  HandlingUnitNode,
  StockAvailability,
  StockMovement,
  StockMovementCreate,
  StockReceipt,
  StockReceiptCreate,
  StockReceiptLineInput,
  StockReceiptListItem,
  StockRecord,
  StockRecordListItem,
  StockTree,
} from '@fvg/contracts';
