import { auditEntrySchema, exportFormatSchema, problemSchema, uuidSchema } from '@fvg/contracts';
import { z } from 'zod';

/** Schemas every record area's routes share. */
export const idParams = z.object({ id: uuidSchema });
export const exportQuery = z.object({ format: exportFormatSchema.optional() });
export const historyResponse = z.array(auditEntrySchema);
export const problemResponses = {
  400: problemSchema,
  401: problemSchema,
  403: problemSchema,
  404: problemSchema,
  409: problemSchema,
};
