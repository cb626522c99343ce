/*
 * The stock area's wire types, written against docs model.md until packages/contracts/src/stock.ts
 * (fix/wh-stock) lands; then this file re-exports the contract's types under the same names, so
 * importers of features/stock/api do not change.
 */
import type {
  CustomsStatus,
  HandlingUnitKind,
  ManualMovementKind,
  MovementKind,
  PartyRef,
  StockAction,
  StockUnit,
} from '@fvg/contracts';

export interface UserRef {
  id: string;
  name: string;
}

export interface HandlingUnitInput {
  kind: HandlingUnitKind;
  sscc?: string | null;
  reference?: string | null;
  quantity: number;
  location?: string | null;
  children?: HandlingUnitInput[];
}

export interface StockReceiptLineInput {
  sku: string;
  description: string;
  commodityCode?: string | null;
  countryOfOrigin?: string | null;
  unit: StockUnit;
  quantity: number;
  location: string;
  packages?: number | null;
  grossMassKg?: string | null;
  netMassKg?: string | null;
  value?: string | null;
  currency?: string | null;
  handlingUnits?: HandlingUnitInput[];
}

export interface StockReceiptCreate {
  ownerId: string;
  receivedOn: string;
  customsStatus: CustomsStatus;
  inboundMrn?: string | null;
  entryDeclarationId?: string | null;
  notes?: string | null;
  lines: StockReceiptLineInput[];
}

export interface StockRecordListItem {
  id: string;
  receipt: { id: string; number: string };
  owner: PartyRef;
  sku: string;
  description: string;
  commodityCode: string | null;
  unit: StockUnit;
  quantityReceived: number;
  quantityOnHand: number;
  quantityReserved: number;
  quantityAvailable: number;
  customsStatus: CustomsStatus;
  inboundMrn: string | null;
  receivedOn: string;
  location: string;
  locationCount: number;
  pallets: number;
  value: string | null;
  currency: string | null;
  updatedAt: string;
}

export interface HandlingUnit {
  id: string;
  parentId: string | null;
  kind: HandlingUnitKind;
  sscc: string | null;
  reference: string | null;
  quantity: number;
  quantityReserved: number;
  location: string;
  position: number;
}

export interface StockRecord extends StockRecordListItem {
  countryOfOrigin: string | null;
  packages: number | null;
  grossMassKg: string | null;
  netMassKg: string | null;
  entryDeclaration: { id: string; lrn: string; mrn: string | null } | null;
  notes: string | null;
  handlingUnits: HandlingUnit[];
  version: number;
  createdAt: string;
  createdBy: UserRef | null;
  allowedActions: StockAction[];
}

export interface StockMovement {
  id: string;
  kind: MovementKind;
  quantity: number;
  handlingUnit: { id: string; kind: HandlingUnitKind; sscc: string | null; reference: string | null } | null;
  fromLocation: string | null;
  toLocation: string | null;
  reason: string | null;
  shipment: { id: string; number: string } | null;
  at: string;
  by: UserRef | null;
}

export interface HandlingUnitNode extends HandlingUnit {
  children: HandlingUnitNode[];
  movements: StockMovement[];
}

export interface StockTree {
  stock: StockRecordListItem;
  units: HandlingUnitNode[];
  movements: StockMovement[];
}

export type StockMovementCreate =
  | {
      kind: Extract<ManualMovementKind, 'transfer'>;
      version: number;
      toLocation: string;
      handlingUnitId?: string;
    }
  | {
      kind: Extract<ManualMovementKind, 'adjustment'>;
      version: number;
      quantity: number;
      reason: string;
      handlingUnitId?: string;
    };

export interface StockReceipt {
  id: string;
  number: string;
  owner: PartyRef;
  receivedOn: string;
  customsStatus: CustomsStatus;
  inboundMrn: string | null;
  entryDeclaration: { id: string; lrn: string; mrn: string | null } | null;
  notes: string | null;
  lines: StockRecordListItem[];
  version: number;
  createdAt: string;
  createdBy: UserRef | null;
}

export interface StockReceiptListItem {
  id: string;
  number: string;
  owner: PartyRef;
  receivedOn: string;
  customsStatus: CustomsStatus;
  inboundMrn: string | null;
  lines: number;
  quantity: number;
  createdAt: string;
}

export interface StockAvailability {
  sku: string;
  description: string;
  unit: StockUnit;
  onHand: number;
  available: number;
  records: number;
}
