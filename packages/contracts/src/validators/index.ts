export * from './iban.ts';
export * from './incoterms.ts';
export * from './iso6346.ts';
export * from './places.ts';
export * from './tax-ids.ts';
