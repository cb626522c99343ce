/**
 * The parties values that screens and the router read without the schemas (no zod here:
 * importing a value must not pull in the area's schemas; ADR 0023).
 */

export const PARTY_KINDS = ['customer', 'consignor', 'consignee', 'carrier', 'agent', 'notify'] as const;
