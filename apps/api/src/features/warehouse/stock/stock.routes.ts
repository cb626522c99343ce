import {
  CUSTOMS_STATUS_LABELS,
  listResponseSchema,
  STOCK_UNIT_LABELS,
  type StockReceiptListItem,
  type StockRecordListItem,
  stockAvailabilityQuerySchema,
  stockAvailabilityResponseSchema,
  stockFieldVisibility,
  stockListQuerySchema,
  stockMovementCreateSchema,
  stockMovementListQuerySchema,
  stockMovementSchema,
  stockReceiptCreateSchema,
  stockReceiptListItemSchema,
  stockReceiptListQuerySchema,
  stockReceiptSchema,
  stockRecordListItemSchema,
  stockRecordSchema,
  stockTreeSchema,
} from '@fvg/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ExportColumn } from '../../../records/export.ts';
import { historyResponse, idParams, listRoutes, problemResponses } from '../../../records/routes.ts';
import { warehouseGate } from '../access.ts';
import type { StockService } from './stock.service.ts';

const stockColumns: ExportColumn<StockRecordListItem>[] = [
  { header: 'SKU', value: (i) => i.sku },
  { header: 'Description', value: (i) => i.description },
  { header: 'Owner', value: (i) => i.owner.name },
  { header: 'Owner code', value: (i) => i.owner.code },
  { header: 'Receipt', value: (i) => i.receipt.number },
  { header: 'Received', value: (i) => i.receivedOn, time: 'day' },
  { header: 'Customs status', value: (i) => CUSTOMS_STATUS_LABELS[i.customsStatus] },
  { header: 'Inbound MRN', value: (i) => i.inboundMrn },
  { header: 'Commodity code', value: (i) => i.commodityCode },
  { header: 'Location', value: (i) => i.location },
  { header: 'Locations', value: (i) => i.locationCount },
  { header: 'Unit', value: (i) => STOCK_UNIT_LABELS[i.unit].many },
  { header: 'Received quantity', value: (i) => i.quantityReceived },
  { header: 'On hand', value: (i) => i.quantityOnHand },
  { header: 'Reserved', value: (i) => i.quantityReserved },
  { header: 'Available', value: (i) => i.quantityAvailable },
  { header: 'Pallets', value: (i) => i.pallets },
  { header: 'Value', value: (i) => (i.value === null ? null : Number(i.value)) },
  { header: 'Currency', value: (i) => i.currency },
  { header: 'Updated', value: (i) => i.updatedAt, time: 'instant' },
];

const receiptColumns: ExportColumn<StockReceiptListItem>[] = [
  { header: 'Receipt', value: (i) => i.number },
  { header: 'Owner', value: (i) => i.owner.name },
  { header: 'Owner code', value: (i) => i.owner.code },
  { header: 'Received', value: (i) => i.receivedOn, time: 'day' },
  { header: 'Customs status', value: (i) => CUSTOMS_STATUS_LABELS[i.customsStatus] },
  { header: 'Inbound MRN', value: (i) => i.inboundMrn },
  { header: 'Lines', value: (i) => i.lines },
  { header: 'Quantity', value: (i) => i.quantity },
  { header: 'Created', value: (i) => i.createdAt, time: 'instant' },
];

/** Receipts, stock records, their handling-unit trees and movements (ADR 0034); cw_access only. */
export const stockRoutes: FastifyPluginAsyncZod<{ stock: StockService }> = async (app, { stock }) => {
  warehouseGate(app);
  const tags = ['warehouse'];
  const withUnprocessable = { ...problemResponses, 422: problemResponses[409] };

  listRoutes(app, {
    path: '/stock-receipts',
    tags,
    summary: 'Goods receipts of the customs warehouse (customers: their own party’s)',
    query: stockReceiptListQuerySchema,
    item: stockReceiptListItemSchema,
    read: { list: stock.listReceipts, all: stock.allReceipts },
    columns: receiptColumns,
    visibility: stockFieldVisibility,
  });
  app.post(
    '/stock-receipts',
    {
      schema: {
        tags,
        summary: 'Receive goods (staff): stock records with their handling units, in one go',
        description:
          'Pallets without an SSCC get one from the GS1 company prefix of the company settings; an SSCC in use ' +
          'answers 409 on its path (`lines.0.handlingUnits.1.sscc`). Non-Union goods under customs warehousing ' +
          'need `inboundMrn` or `entryDeclarationId` (an H2 import declaration of the owner, with its MRN).',
        body: stockReceiptCreateSchema,
        response: { 201: stockReceiptSchema, ...withUnprocessable },
      },
    },
    async (request, reply) => reply.status(201).send(await stock.createReceipt(request.user, request.body)),
  );
  app.get(
    '/stock-receipts/:id',
    { schema: { tags, params: idParams, response: { 200: stockReceiptSchema, ...problemResponses } } },
    (request) => stock.getReceipt(request.user, request.params.id),
  );

  listRoutes(app, {
    path: '/stock',
    tags,
    summary: 'Stock records (customers: their own party’s)',
    query: stockListQuerySchema,
    item: stockRecordListItemSchema,
    read: stock,
    columns: stockColumns,
    visibility: stockFieldVisibility,
  });
  app.get(
    '/stock/availability',
    {
      schema: {
        tags,
        summary: 'On hand and available per SKU of an owner, by SKU prefix (a shipment line as you type)',
        querystring: stockAvailabilityQuerySchema,
        response: { 200: stockAvailabilityResponseSchema, ...problemResponses },
      },
    },
    (request) => stock.availability(request.user, request.query),
  );
  app.get(
    '/stock/:id',
    { schema: { tags, params: idParams, response: { 200: stockRecordSchema, ...problemResponses } } },
    (request) => stock.get(request.user, request.params.id),
  );
  app.get(
    '/stock/:id/tree',
    {
      schema: {
        tags,
        summary: 'The handling-unit tree with each unit’s movements',
        params: idParams,
        response: { 200: stockTreeSchema, ...problemResponses },
      },
    },
    (request) => stock.tree(request.user, request.params.id),
  );
  app.get(
    '/stock/:id/movements',
    {
      schema: {
        tags,
        summary: 'Movements of a stock record, newest first',
        params: idParams,
        querystring: stockMovementListQuerySchema,
        response: { 200: listResponseSchema(stockMovementSchema), ...problemResponses },
      },
    },
    (request) => stock.movements(request.user, request.params.id, request.query),
  );
  app.post(
    '/stock/:id/movements',
    {
      schema: {
        tags,
        summary: 'Transfer to another location, or adjust with a reason (staff)',
        description:
          'With handling units an adjustment names a unit that holds no others; nothing may fall below what ' +
          'shipments have reserved (409 naming them). Answers the stock record after the movement.',
        params: idParams,
        body: stockMovementCreateSchema,
        response: { 201: stockRecordSchema, ...withUnprocessable },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await stock.postMovement(request.user, request.params.id, request.body)),
  );
  app.get(
    '/stock/:id/history',
    { schema: { tags, params: idParams, response: { 200: historyResponse, ...problemResponses } } },
    (request) => stock.history(request.user, request.params.id),
  );
};
