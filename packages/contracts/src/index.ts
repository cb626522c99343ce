export * from './auth.ts';
export * from './constants.ts';
export * from './health.ts';
export * from './problem.ts';
export * from './users.ts';
export * from './validators/index.ts';
