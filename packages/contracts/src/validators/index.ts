export * from './customs.ts';
export * from './gs1.ts';
export * from './iban.ts';
export * from './incoterms.ts';
export * from './iso6346.ts';
export * from './mrn.ts';
export * from './places.ts';
export * from './tax-ids.ts';
